/**
 * POST /mcp on the official SDK v2 (./mcp-sdk.ts, loaded by the first MCP message): one tool per action, both eras.
 * Before the SDK: the hosts, the body, batches, headers that contradict the body (what the SDK checks: docs/api.md).
 */
import type { CallToolResult, jsonSchemaValidator, ServerContext } from '@modelcontextprotocol/server';
import { MAX_BODY_BYTES, ACTIONS, type ProposalAction } from '../../contract/fields.ts';
import { problem, withProblemBase, type Reply } from '../../contract/http.ts';
import { mcpCaller } from '../../contract/consent.ts';
import { implementationName, userAgentProduct } from '../../contract/source.ts';
import {
  MCP_ALLOW,
  MCP_CAPABILITIES,
  METHOD_NOT_ALLOWED,
  mcpInstructions,
  mcpServerInfo,
  PROTOCOL_VERSIONS,
  rpcError,
} from '../../contract/mcp-server.ts';
import { IDEMPOTENCY_KEY_ARGUMENT as KEY, mcpTools, PROPOSAL_TOOLS, REPLAYED_META } from '../../contract/tools.ts';
import { errorName, logEvent } from '../log.ts';
import { checked, internalError, runAction, type Intake, type Invocation } from '../actions/pipeline.ts';
import { consentCodec, mcpConsent, type Codec } from '../consent/elicit.ts';
import { declaredSession, withSession } from '../consent/session.ts';
import { allowedHosts, foreignHost, readPost, type PostRefusal } from './gates.ts';

export type McpSdk = typeof import('./mcp-sdk.ts');

/** A JSON-RPC envelope around the largest request the contract accepts. */
const MAX_MCP_BODY_BYTES = MAX_BODY_BYTES + 4 * 1024;
const REFUSED: Record<PostRefusal, [number, number, string]> = {
  'media-type': [415, -32000, 'Unsupported Media Type: Content-Type must be application/json'],
  'too-large': [413, -32000, `Payload too large: at most ${MAX_MCP_BODY_BYTES} bytes.`],
  unreadable: [400, -32700, 'Parse error: the body could not be read.'],
  'malformed-json': [400, -32700, 'Parse error: Invalid JSON'],
};

const MCP_WORDS = {
  action: (action: ProposalAction) => `the ${PROPOSAL_TOOLS[action].name} tool`,
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

/**
 * A batch (batching left MCP in 2025-06-18, and one would carry many submits past the rate limit), or
 * Mcp-Method and Mcp-Name (SEP-2243) that contradict the body: the SDK checks those on 2026-07-28 only.
 */
function refusal(req: Request, message: unknown): Response | undefined {
  if (Array.isArray(message))
    return rpcError(400, -32600, 'Invalid Request: JSON-RPC batches are not supported; send one message per request.');
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as { method?: unknown; id?: unknown; params?: { name?: unknown } };
  const [method, name] = [req.headers.get('mcp-method')?.trim(), req.headers.get('mcp-name')?.trim()];
  const tool = m.method === 'tools/call' ? m.params?.name : undefined;
  const contradiction =
    method !== undefined && method !== m.method
      ? `the body names method ${String(m.method)} but the Mcp-Method header names ${method}`
      : name !== undefined && typeof tool === 'string' && name !== tool
        ? `the body carries params.name="${tool}" but the Mcp-Name header names "${name}"`
        : undefined;
  if (contradiction === undefined) return undefined;
  const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null;
  return rpcError(400, -32020, `Bad Request: the request headers and body disagree: ${contradiction}`, id);
}

/** Success: `structuredContent` and the same JSON as text (a replay says so in `_meta`); a refusal: `isError` and the problem. */
function toolResult(reply: Reply, agentsPage: string): CallToolResult {
  const body = withProblemBase(reply, agentsPage).body as Record<string, unknown>;
  const text = (value: unknown) => ({ type: 'text' as const, text: JSON.stringify(value) });
  if (reply.status >= 300) return { isError: true, content: [text(body)] };
  if (new Headers(reply.headers).get('idempotent-replayed') !== 'true')
    return { content: [text(body)], structuredContent: body };
  const note = `Replayed: this ${KEY} was already used with these arguments; this is the stored result, nothing was submitted again.`;
  return {
    content: [text(body), { type: 'text', text: note }],
    structuredContent: body,
    _meta: { [REPLAYED_META]: true },
  };
}

function buildServer(sdk: McpSdk, intake: Intake, inv: Invocation, codec: Codec | undefined) {
  const k = intake.knowledge;
  const result = (reply: Reply) => toolResult(reply, k.urls.agents);
  const server = new sdk.McpServer(mcpServerInfo(k), {
    ...(codec && { requestState: { verify: codec.verify } }),
    capabilities: MCP_CAPABILITIES,
    instructions: mcpInstructions(k),
    supportedProtocolVersions: [...PROTOCOL_VERSIONS],
    cacheHints: { 'tools/list': CACHE_HINT, 'server/discover': CACHE_HINT },
  });
  const schema = (json: object) => sdk.fromJsonSchema<Record<string, unknown>>(json, PIPELINE_VALIDATES);
  mcpTools(k).forEach(({ name, inputSchema, outputSchema, ...described }, i) => {
    const action = ACTIONS[i] as ProposalAction;
    server.registerTool(
      name,
      { ...described, inputSchema: schema(inputSchema), outputSchema: schema(outputSchema) },
      async (given, ctx: ServerContext) => {
        const { [KEY]: key, ...args } = given;
        if (action === 'submit' && key !== undefined && typeof key !== 'string')
          return result(problem('invalid-idempotency-key', `The ${KEY} argument must be a string.`));
        // The client's name for itself: `clientInfo` in the envelope (SEP-2575), what its 2025-era session declared, or its User-Agent.
        const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
        const session = declaredSession(intake.config.consent.secret, inv.request, intake.now());
        const client =
          implementationName(envelope?.[sdk.CLIENT_INFO_META_KEY]) ??
          session?.client ??
          userAgentProduct(inv.request.headers.get('user-agent'));
        const caller = mcpCaller(client, inv.request, session?.revision);
        // Other actions take no key: sent to them, it is a field their schema does not allow.
        const request = (consent = caller.consent) => ({
          body: { ...(action === 'submit' ? args : given), action },
          idempotencyKey: action === 'submit' ? ((key as string | undefined) ?? null) : null,
          door: MCP_WORDS,
          source: caller.source,
          consent,
        });
        try {
          let consent = caller.consent;
          if (action === 'submit') {
            const labels = intake.partner.choiceLabels;
            const asked = await mcpConsent(intake, sdk, codec, ctx, {
              args,
              key,
              asserted: caller.consent,
              session,
              check: () => checked(intake, request()).then((draft) => ('valid' in draft ? undefined : draft)),
              summary: {
                company: typeof args['company'] === 'string' ? args['company'] : '',
                choices: [args['primary_need'], args['engagement_model']].flatMap((c) => labels[String(c)] ?? []),
              },
            });
            if ('ask' in asked) return asked.ask;
            if ('refuse' in asked) return result(asked.refuse);
            consent = asked.consent;
          }
          return result(await runAction(intake, inv, request(consent)));
        } catch (error) {
          if (error instanceof sdk.UrlElicitationRequiredError) throw error;
          logEvent('unexpected_error', { name: errorName(error), channel: 'mcp' });
          return result(internalError());
        }
      },
    );
  });
  return server;
}

export function createMcpDoor(intake: Intake, loadSdk: () => Promise<McpSdk>) {
  const hosts = allowedHosts(intake.knowledge.urls.home, intake.config.deployUrls);
  const secret = intake.config.consent.secret;
  let sdk: Promise<McpSdk> | undefined;
  const load = () =>
    (sdk ??= loadSdk().catch((error: unknown) => {
      sdk = undefined; // the next MCP message tries again
      throw error;
    }));

  return async function handleMcp(inv: Invocation): Promise<Response> {
    const req = inv.request;
    const foreign = foreignHost(req, hosts);
    if (foreign) return rpcError(403, -32000, `Forbidden: this ${foreign} is not one this server answers on.`);
    if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow: MCP_ALLOW } });
    if (req.method !== 'POST') return Response.json(METHOD_NOT_ALLOWED, { status: 405, headers: { allow: MCP_ALLOW } });
    // Read once here; the SDK gets the parsed message and never reads the body again.
    const post = await readPost(req, ['json'], MAX_MCP_BODY_BYTES);
    if ('refused' in post) return rpcError(...REFUSED[post.refused]);
    inv.body = post.bytes;
    const refused = refusal(req, post.json);
    if (refused) return refused;
    try {
      const loaded = await load();
      const codec = consentCodec(loaded, secret);
      // The server is built per message: stateless, and each message's invocation is its own.
      const handler = loaded.createMcpHandler(() => buildServer(loaded, intake, inv, codec), {
        responseMode: 'json',
        maxRequestBodySize: MAX_MCP_BODY_BYTES,
        onerror: (error: Error) => logEvent('mcp_error', { name: errorName(error) }),
      });
      const answer = () => handler.fetch(req, { parsedBody: post.json });
      return await withSession(secret, req, post.json, answer, intake.now());
    } catch (error) {
      // Never a stack trace or a file path: the class name to the log, a fixed text to the client.
      logEvent('unexpected_error', { name: errorName(error), channel: 'mcp' });
      return rpcError(500, -32603, 'Internal error');
    }
  };
}
