/**
 * The parts of the official MCP SDK v2 (@modelcontextprotocol/server) the endpoint uses, in one
 * list. The build bundles this file, minified and tree-shaken, into `.generated/mcp-sdk.mjs`
 * (src/integrations/build-outputs.ts), a file of its own in the shipped zip (netlify.toml
 * included_files) that the function entry imports when the first MCP message arrives. Two reasons,
 * both measured by `npm run bench` (item 3): the packager traces the SDK's and zod's whole ESM
 * trees file by file (about 510 KB zipped, the bundle about 85 KB); and whatever the entry imports
 * by a literal path, even dynamically, it inlines into the one function file that every cold start
 * parses, MCP message or not.
 */
export {
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  fromJsonSchema,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
