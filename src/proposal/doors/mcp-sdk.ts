/**
 * The parts of the MCP SDK v2 the door uses. The build bundles this file into .generated/mcp-sdk.mjs,
 * which the function entry imports on the first MCP message (docs/api.md, "How the SDK ships").
 */
export { CLIENT_INFO_META_KEY, createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
export {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/server';
