/** The MCP protocol versions the specification lists, newest first; initialize offers the first. */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;
