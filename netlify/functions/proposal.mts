import type { Config, Context } from '@netlify/functions';
import knowledge from '../../.generated/knowledge.json' with { type: 'json' };
import * as validators from '../../.generated/validators.mjs';
import { createProposalHandler } from '../../src/proposal/http/handler.ts';
import { createMcpHandler } from '../../src/proposal/mcp/endpoint.ts';
import { createActionPipeline } from '../../src/proposal/actions/pipeline.ts';
import { asClient, pipelineForClient } from '../../src/proposal/gate/client-network.ts';
import type { Knowledge } from '../../src/contract/knowledge.ts';
import type { McpSdk } from '../../src/proposal/mcp/server.ts';
import { DOCUMENT_PATHS } from '../../src/contract/paths.ts';
import { readEnv } from '../../src/contract/http.ts';
import { agentIdentityDepsFromEnv } from '../../src/proposal/agent-identity/verify.ts';
import { withAgentIdentity } from '../../src/proposal/agent-identity/invocation.ts';
import { hardened } from '../../src/proposal/gate/hardened.ts';

const k = knowledge as Knowledge;
// One pipeline for both paths: the HTTP API and MCP run the very same steps on a parsed action.
const pipeline = createActionPipeline(k, validators);
const http = createProposalHandler(k, pipeline);
// A computed specifier: the packager leaves the SDK a file of its own (netlify.toml included_files)
// instead of inlining it into this one, which every cold start parses (src/proposal/mcp/sdk.ts).
const MCP_SDK = new URL('../../.generated/mcp-sdk.mjs', import.meta.url).href;
// Built once; each invocation runs as its client (asClient), so MCP requests meet the per-client send limit.
const mcp = createMcpHandler(k, pipelineForClient(pipeline), () => import(MCP_SDK) as Promise<McpSdk>);
// Web Bot Auth: each POST's signature is verified beside the door that takes it (a record, not a gate).
const agentIdentity = agentIdentityDepsFromEnv(readEnv);

/**
 * /api/proposal (POST an action) and /mcp (POST MCP messages). GET of either never reaches the
 * function: the CDN serves the contract file and /mcp's 405 (netlify.toml). The context carries
 * waitUntil, which runs the redelivery sweep after the reply.
 *
 * netlify serve retries a 403 or 404 reply at `<path>.html`, `.htm`, `/index.html` and `/index.htm`
 * (its CDN emulation does so for files, utils/proxy.js alternativePathsFor); the last retry's answer
 * is the one the client gets, so each retry goes to the handler of the path it retries.
 */
const API_PATHS = new Set(
  ['', '.html', '.htm', '/index.html', '/index.htm'].map((s) => DOCUMENT_PATHS.proposalApi + s),
);

/** The API, and the confirmation pages' own addresses, which their forms post to without JavaScript. */
const toHttp = (path: string) => API_PATHS.has(path) || path.startsWith(`${DOCUMENT_PATHS.consentPages}/`);

export default async (req: Request, context?: Context) =>
  hardened(
    await withAgentIdentity(req, agentIdentity, () =>
      // Anything but the API's paths is /mcp, whose retries must be refused alike.
      toHttp(new URL(req.url).pathname) ? http(req, context) : asClient(context?.ip, () => mcp(req, context)),
    ),
  );

export const config: Config = {
  // DOCUMENT_PATHS.proposalApi, DOCUMENT_PATHS.mcp and the confirmation pages' POSTs (DOCUMENT_PATHS.consentPages),
  // written out because
  // Netlify reads them statically; a test keeps them equal. The methods hold for every path of a
  // function, so GET is not among them: GET /api/proposal is the contract file from the CDN (no
  // invocation, no rate-limit count), and GET /mcp is the CDN's 405 with Allow, a rewrite with
  // status 405 in netlify.toml, as MCP asks of a server without an event stream. DELETE (a session
  // end) reaches the function, which answers 405 with Allow.
  path: ['/api/proposal', '/mcp', '/confirm/*'],
  method: ['POST', 'OPTIONS', 'DELETE'],
  // Mirrored in the contract's limits.rate_limit (src/contract/contract.ts); a test keeps them equal.
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
