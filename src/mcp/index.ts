/** Public surface of src/mcp: its transports, which build the server (loaded lazily by `skilldex mcp`). */
export { serveHttp, serveStdio } from './start.js';
