import type { Config, Context } from '@netlify/functions';
import contract from '../../.generated/contract.json' with { type: 'json' };
import knowledge from '../../.generated/knowledge.json' with { type: 'json' };
import * as validators from '../../.generated/validators.mjs';
import { createProposalHandler } from '../../src/proposal/handler.ts';
import { createMcpHandler } from '../../src/proposal/mcp/endpoint.ts';
import { createActionPipeline } from '../../src/proposal/pipeline.ts';
import { pipelineForClient } from '../../src/proposal/client-network.ts';
import type { Knowledge } from '../../src/contract/knowledge.ts';
import { DOCUMENT_PATHS } from '../../src/contract/paths.ts';

const k = knowledge as Knowledge;
// One pipeline for both paths: the HTTP API and MCP run the very same steps on a parsed action.
const pipeline = createActionPipeline(k, validators);
// Set by scripts/dev.ts alone: under npm run dev the contract is Astro's, rendered from the content now.
const http = createProposalHandler(k, pipeline, contract, process.env['DEV_CONTRACT_ORIGIN']);
/** The MCP endpoint for one invocation: its requests carry the client's network (the per-client send limit). */
const mcp = (req: Request, context?: Context) =>
  createMcpHandler(k, pipelineForClient(pipeline, context?.ip))(req, context);

/**
 * /api/proposal (POST an action; GET the contract Astro built) and /mcp (POST; other methods 405).
 * The context carries waitUntil, which runs the redelivery sweep after the reply.
 */
/**
 * netlify serve retries a 403 or 404 reply at `<path>.html`, `.htm`, `/index.html` and `/index.htm`
 * (its CDN emulation does so for files, utils/proxy.js alternativePathsFor); the last retry's answer
 * is the one the client gets, so each retry goes to the handler of the path it retries.
 */
const API_PATHS = new Set(
  ['', '.html', '.htm', '/index.html', '/index.htm'].map((s) => DOCUMENT_PATHS.proposalApi + s),
);

export default (req: Request, context?: Context) =>
  // Anything but the API's paths is /mcp, whose retries must be refused alike.
  API_PATHS.has(new URL(req.url).pathname) ? http(req, context) : mcp(req, context);

export const config: Config = {
  // DOCUMENT_PATHS.proposalApi and DOCUMENT_PATHS.mcp (src/contract/paths.ts), written out because
  // Netlify reads them statically; a test keeps them equal. The methods hold for both paths: GET
  // and DELETE must reach the function so /mcp can answer 405 with Allow, as MCP asks of a
  // server without an event stream or sessions; GET /api/proposal then serves the contract.
  path: ['/api/proposal', '/mcp'],
  method: ['GET', 'POST', 'OPTIONS', 'DELETE'],
  // Mirrored in the contract's limits.rate_limit (src/contract/contract.ts); a test keeps them equal.
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
