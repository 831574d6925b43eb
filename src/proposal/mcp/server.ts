/**
 * The MCP server on the official SDK v2: one tool per action for both protocol eras. Its
 * createMcpHandler answers 2026-07-28 (server/discover, the `_meta` envelope, cache hints) and
 * 2025-era requests on its stateless legacy path, whose replies are event streams, as those
 * revisions allow; a client of them must read both (2025-03-26, "Streamable HTTP").
 */
import type { jsonSchemaValidator, ServerContext } from '@modelcontextprotocol/server';
import type { Knowledge } from '../../contract/knowledge.ts';
import { problem, readEnv, withProblemBase, type Reply } from '../../contract/http.ts';
import { ACTIONS, type ProposalAction } from '../../contract/fields.ts';
import { implementationName, userAgentProduct } from '../../contract/source.ts';
import { mcpCaller } from '../../contract/consent.ts';
import type { DoorWords } from '../actions/door-words.ts';
import { internalError, type ActionPipeline, type ActionRequest } from '../actions/pipeline.ts';
import { errorName, logEvent } from '../submit/log.ts';
import { IDEMPOTENCY_KEY_ARGUMENT as KEY, mcpTools, PROPOSAL_TOOLS, toolResult } from '../actions/tools.ts';
import { consentCodec, mcpConsent, type Codec } from '../consent/mcp-consent.ts';
import { consentSecretFromEnv } from '../submit/consent-links.ts';
import { declaredSession } from '../consent/mcp-session.ts';
import { mcpInstructions, mcpServerInfo, PROTOCOL_VERSIONS } from './server-info.ts';

export type McpSdk = typeof import('./sdk.ts');

export const MCP_WORDS: DoorWords = {
  action: (action) => `the ${PROPOSAL_TOOLS[action].name} tool`,
  key: `the ${KEY} argument`,
  keyPointer: `#/${KEY}`,
  schemas: "the tool's inputSchema in tools/list",
};

/** The SDK checks no argument: the pipeline, every door's one validator, answers with problem details. */
const PIPELINE_VALIDATES: jsonSchemaValidator = {
  getValidator: () => (data) => ({ valid: true, data: data as never, errorMessage: undefined }),
};

/** tools/list and server/discover change only with a deploy: clients may keep them five minutes. */
const CACHE_HINT = { ttlMs: 5 * 60 * 1000, cacheScope: 'public' as const };

/** The action's Reply, its errors contained. */
async function run(
  action: ProposalAction,
  given: Record<string, unknown>,
  caller: Pick<ActionRequest, 'source' | 'consent'>,
  pipeline: ActionPipeline,
): Promise<Reply> {
  const { [KEY]: key, ...args } = given;
  if (action === 'submit' && key !== undefined && typeof key !== 'string')
    return problem('invalid-idempotency-key', `The ${KEY} argument must be a string.`);
  try {
    // Other actions take no key: sent to them, it is a field their schema does not allow.
    const body = { ...(action === 'submit' ? args : given), action };
    return await pipeline.run({
      body,
      idempotencyKey: action === 'submit' ? ((key as string) ?? null) : null,
      door: MCP_WORDS,
      ...caller,
    });
  } catch (error) {
    logEvent('unexpected_error', { name: errorName(error), channel: 'mcp' });
    return internalError();
  }
}

function buildServer(sdk: McpSdk, k: Knowledge, pipeline: ActionPipeline, codec: Codec | undefined) {
  const server = new sdk.McpServer(mcpServerInfo(k), {
    ...(codec && { requestState: { verify: codec.verify } }),
    capabilities: { tools: { listChanged: false } },
    instructions: mcpInstructions(k),
    supportedProtocolVersions: [...PROTOCOL_VERSIONS],
    cacheHints: { 'tools/list': CACHE_HINT, 'server/discover': CACHE_HINT },
  });
  const schema = (json: object) => sdk.fromJsonSchema<Record<string, unknown>>(json, PIPELINE_VALIDATES);
  mcpTools(k).forEach(({ name, inputSchema, outputSchema, ...described }, i) => {
    const config = { ...described, inputSchema: schema(inputSchema), outputSchema: schema(outputSchema) };
    server.registerTool(name, config, async (args, ctx: ServerContext) => {
      // The client's name for itself: `clientInfo` in the `_meta` envelope (SEP-2575), else its User-Agent.
      const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
      const agent = ctx.http?.req?.headers.get('user-agent') ?? null;
      // A 2025-era client's clientInfo and revision: what its session says it declared at initialize.
      const session = declaredSession(codec?.secret, ctx.http?.req, new Date());
      const client =
        implementationName(envelope?.[sdk.CLIENT_INFO_META_KEY]) ?? session?.client ?? userAgentProduct(agent);
      const caller = mcpCaller(client, ctx.http?.req, session?.revision);
      const asked =
        ACTIONS[i] === 'submit'
          ? await mcpConsent(sdk, codec, ctx, { args, keyName: KEY, asserted: caller.consent, session, k })
          : null;
      if (asked && 'ask' in asked) return asked.ask;
      const reply =
        asked && 'refuse' in asked ? asked.refuse : await run(ACTIONS[i]!, args, { ...caller, ...asked }, pipeline);
      return toolResult(withProblemBase(reply, k.urls.agents));
    });
  });
  return server;
}

/** The handler of both eras, stateless; `sdk` is the module the function entry loaded. */
export function createMcpServer(sdk: McpSdk, k: Knowledge, pipeline: ActionPipeline, maxRequestBodySize: number) {
  // Reporting only: the class name, never a message or stack that could carry a value.
  const onerror = (error: Error) => logEvent('mcp_error', { name: errorName(error) });
  const options = { responseMode: 'json' as const, maxRequestBodySize, onerror };
  const codec = consentCodec(sdk, consentSecretFromEnv(readEnv).secret);
  const handler = sdk.createMcpHandler(() => buildServer(sdk, k, pipeline, codec), options);
  return (req: Request, parsedBody: unknown) => handler.fetch(req, { parsedBody });
}
