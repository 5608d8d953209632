/** Public surface of src/mcp: the server factory and its transports (loaded lazily by `skilldex mcp`). */
export { createServer, INSTRUCTIONS } from './server.js';
export {
  serveHttp,
  serveStdio,
  MAX_HTTP_BODY,
  type HttpHandle,
  type HttpOptions,
} from './start.js';
export {
  SKILLS_EXTENSION,
  skillFileCandidates,
  skillFileUri,
  skillIdOf,
  skillUri,
} from './skills-extension.js';
export { ERROR_META_KEY, type ServerContext } from './context.js';
