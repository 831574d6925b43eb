/**
 * The parts of the official MCP SDK v2 (@modelcontextprotocol/server) the endpoint uses, in one
 * list. The build bundles this file, minified and tree-shaken, into `.generated/mcp-sdk.mjs`
 * (src/integrations/build-outputs.ts), and ./server.ts imports that: the function is traced file by
 * file (nft), which would ship the SDK's and zod's whole ESM trees (about 510 KB zipped, against
 * about 125 KB for the bundle; `npm run bench`, item 3).
 */
export {
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  fromJsonSchema,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
