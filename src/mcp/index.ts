/** repkit's MCP server (Node only; needs the optional `@modelcontextprotocol/sdk` and `zod`). */
export { createMcpServer, MCP_TOOLS } from './server.ts';
export { serveMcpHttp, type McpHttpOptions } from './http.ts';
