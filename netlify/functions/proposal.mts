import type { Config, Context } from '@netlify/functions';
import knowledge from '../../.generated/knowledge.json' with { type: 'json' };
import * as validators from '../../.generated/validators.mjs';
import { createProposalHandler } from '../../src/proposal/handler.ts';
import type { Knowledge } from '../../src/proposal/knowledge.ts';

const handle = createProposalHandler(knowledge as Knowledge, validators);

/**
 * POST /api/proposal; GET of the same path is the static contract built by Astro. The context
 * carries waitUntil, which runs the redelivery sweep after the reply.
 */
export default (req: Request, context?: Context) => handle(req, context);

export const config: Config = {
  // DOCUMENT_PATHS.proposalApi (src/schemas/paths.ts), written out because Netlify reads it statically; a test keeps them equal.
  path: '/api/proposal',
  method: ['POST', 'OPTIONS'],
  // Mirrored in the contract's limits.rate_limit (src/proposal/contract.ts); a test keeps them equal.
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
