/**
 * POST /mcp: the gate's checks (../gate/), what only MCP refuses, then the SDK server of
 * ./server.ts, loaded with the SDK on the first MCP message, so the proposal API never loads it.
 */
import type { Knowledge } from '../../contract/knowledge.ts';
import { MAX_BODY_BYTES } from '../../contract/fields.ts';
import { readEnv } from '../../contract/http.ts';
import { allowedHosts, foreignHost } from '../gate/hosts.ts';
import { readPost, type PostRefusal } from '../gate/post.ts';
import { messageRefusal } from '../gate/mcp-message.ts';
import { withSession } from '../consent/mcp-session.ts';
import { consentSecretFromEnv } from '../submit/consent-links.ts';
import type { ActionPipeline, InvocationContext } from '../actions/pipeline.ts';
import { errorName, logEvent } from '../submit/log.ts';
import { MCP_ALLOW, METHOD_NOT_ALLOWED, rpcError } from '../gate/json-rpc.ts';
import type { McpSdk } from './server.ts';

/** A JSON-RPC envelope around the largest request the contract accepts. */
const MAX_MCP_BODY_BYTES = MAX_BODY_BYTES + 4 * 1024;

const REFUSED: Record<PostRefusal, [number, number, string]> = {
  'media-type': [415, -32000, 'Unsupported Media Type: Content-Type must be application/json'],
  'too-large': [413, -32000, `Payload too large: at most ${MAX_MCP_BODY_BYTES} bytes.`],
  unreadable: [400, -32700, 'Parse error: the body could not be read.'],
  'malformed-json': [400, -32700, 'Parse error: Invalid JSON'],
};

/** `loadSdk`: imports the bundled SDK (./sdk.ts), called when the first MCP message arrives. */
export function createMcpHandler(k: Knowledge, pipeline: ActionPipeline, loadSdk: () => Promise<McpSdk>) {
  let server: Promise<(req: Request, parsedBody: unknown) => Promise<Response>> | undefined;
  const load = () =>
    (server ??= Promise.all([loadSdk(), import('./server.ts')]).then(
      ([sdk, { createMcpServer }]) => createMcpServer(sdk, k, pipeline, MAX_MCP_BODY_BYTES),
      (error: unknown) => {
        server = undefined; // not kept: the next MCP message tries to load again
        throw error;
      },
    ));

  return async function handleMcp(req: Request, context?: InvocationContext): Promise<Response> {
    const foreign = foreignHost(req, allowedHosts(k.urls.home, readEnv));
    if (foreign) return rpcError(403, -32000, `Forbidden: this ${foreign} is not one this server answers on.`);
    if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow: MCP_ALLOW } });
    if (req.method !== 'POST') return Response.json(METHOD_NOT_ALLOWED, { status: 405, headers: { allow: MCP_ALLOW } });
    // Read once here; the SDK gets the parsed message and never reads the body again.
    const post = await readPost(req, ['json'], MAX_MCP_BODY_BYTES);
    if ('refused' in post) return rpcError(...REFUSED[post.refused]);
    const refused = messageRefusal(req, post.json);
    if (refused) return refused;
    pipeline.scheduleSweep(context);
    try {
      const serve = await load();
      return await withSession(consentSecretFromEnv(readEnv).secret, req, post.json, () => serve(req, post.json));
    } catch (error) {
      // Never a stack trace or a file path: the class name goes to the log, a fixed text to the client.
      logEvent('unexpected_error', { name: errorName(error), channel: 'mcp' });
      return rpcError(500, -32603, 'Internal error');
    }
  };
}
