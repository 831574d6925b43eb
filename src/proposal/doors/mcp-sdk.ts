/** The MCP SDK v2 as the door uses it, bundled into .generated/mcp-sdk.mjs for the first MCP message (docs/api.md). */
export { CLIENT_INFO_META_KEY, createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
export {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/server';
