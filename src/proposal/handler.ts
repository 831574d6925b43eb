/**
 * POST /api/proposal: the HTTP API and the workspace's form. Reads and parses the body in its own
 * steps (./request-steps.ts), then hands the action to the pipeline every channel shares
 * (./pipeline.ts). Every failure is an RFC 9457 problem; nothing here throws to the platform.
 */
import type { Knowledge } from '../contract/knowledge.ts';
import { withProblemBase } from '../contract/http.ts';
import { mediaTypeOf } from './parse-request.ts';
import { Answer, negotiate, parse, read, type Flow, type Routed } from './request-steps.ts';
import { htmlReply } from './html-reply.ts';
import { logEvent } from './submit/log.ts';
import { internalError, type ActionPipeline, type InvocationContext } from './pipeline.ts';
import { CHANNEL_HEADER, httpChannel, userAgentProduct } from './source.ts';
import { PROPOSAL_API_PATH } from '../contract/paths.ts';

export type { InvocationContext } from './pipeline.ts';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': `content-type, idempotency-key, ${CHANNEL_HEADER}`,
  'access-control-expose-headers': 'retry-after, idempotent-replayed, location',
};

/**
 * `contract`: the published contract (GET /api/proposal), which the function serves because its
 * path takes GET too (see netlify/functions/proposal.mts); without it GET is refused as before.
 * `liveContractFrom`: under `npm run dev`, the Astro dev server's origin; GET then answers with the
 * contract Astro renders from the content as it is now (or its error), never a copy made earlier.
 */
export function createProposalHandler(
  k: Knowledge,
  pipeline: ActionPipeline,
  contract?: unknown,
  liveContractFrom?: string,
) {
  // The same bytes Astro writes to dist/api/proposal.json (src/lib/agents/responses.ts).
  const contractText = contract === undefined ? undefined : `${JSON.stringify(contract, null, 2)}\n`;

  async function liveContract(origin: string, method: string): Promise<Response> {
    const res = await fetch(new URL(`${PROPOSAL_API_PATH}.json`, origin), { method });
    return new Response(res.body, {
      status: res.status,
      headers: {
        'content-type': res.headers.get('content-type') ?? 'application/json; charset=utf-8',
        'access-control-allow-origin': '*',
        'cache-control': 'no-store',
      },
    });
  }

  /** The HTTP steps, then the shared pipeline. */
  async function route(req: Request): Promise<Routed> {
    const flow: Flow = { req, media: mediaTypeOf(req.headers.get('content-type')), form: false };
    flow.form = flow.media === 'form';
    try {
      const media = negotiate(flow);
      const raw = await read(req);
      const parsed = parse(raw, media);
      return await pipeline.run({
        body: parsed.body,
        idempotencyKey: req.headers.get('idempotency-key'),
        source: {
          channel: httpChannel(flow.form, req.headers.get(CHANNEL_HEADER)),
          client: userAgentProduct(req.headers.get('user-agent')),
        },
        ...(flow.form ? { form: { raw, key: parsed.formKey } } : {}),
      });
    } catch (error) {
      if (!(error instanceof Answer)) throw error;
      return { reply: error.reply, form: flow.form };
    }
  }

  return async function handle(req: Request, context?: InvocationContext): Promise<Response> {
    if (contractText !== undefined && (req.method === 'GET' || req.method === 'HEAD')) {
      if (liveContractFrom !== undefined) return liveContract(liveContractFrom, req.method);
      return new Response(req.method === 'HEAD' ? null : contractText, {
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'access-control-allow-origin': '*',
          'cache-control': 'public, max-age=0, must-revalidate',
        },
      });
    }
    pipeline.scheduleSweep(context);
    // A form post's reply page shows the form again with what was typed, so keep a copy to read.
    const copy =
      mediaTypeOf(req.headers.get('content-type')) === 'form' && req.method === 'POST' ? req.clone() : undefined;
    let routed: Routed;
    try {
      routed = await route(req);
    } catch (error) {
      logEvent('unexpected_error', { name: error instanceof Error ? error.name : 'unknown' });
      routed = { reply: internalError(), form: false };
    }
    const { action, form } = routed;
    const reply = withProblemBase(routed.reply, k.urls.agents);
    const accept = req.headers.get('accept') ?? '';
    const wantsHtml = form || (/\btext\/html\b/.test(accept) && !/json/.test(accept));
    if (wantsHtml && reply.status !== 204) {
      const posted = copy && reply.status !== 413 ? new URLSearchParams(await copy.text().catch(() => '')) : undefined;
      return htmlReply(k, reply, action, posted);
    }
    const headers = new Headers({ ...CORS, 'cache-control': 'no-store' });
    for (const [name, value] of Object.entries(reply.headers ?? {})) headers.set(name, value);
    return new Response(reply.body === null ? null : JSON.stringify(reply.body), { status: reply.status, headers });
  };
}
