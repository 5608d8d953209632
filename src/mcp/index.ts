/** Public surface of src/mcp: the server factory and its transports (loaded lazily by `skilldex mcp`). */
export { createServer } from './server.js';
export { serveHttp, serveStdio } from './start.js';
export { skillFileCandidates, skillFileUri, skillIdOf, skillUri } from './skills-extension.js';
