/** The server version reported to MCP clients (the package version). */
export const VERSION_STRING = '0.1.0';
