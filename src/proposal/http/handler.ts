/** POST /api/proposal (the HTTP API and the workspace's form): parses the body for the shared pipeline. */
import type { Knowledge } from '../../contract/knowledge.ts';
import { problem, readEnv, withProblemBase, type Reply } from '../../contract/http.ts';
import { allowedHosts, foreignHost } from '../gate/hosts.ts';
import { mediaTypeOf, readPost, type PostRefusal } from '../gate/post.ts';
import { MAX_BODY_BYTES } from '../../contract/fields.ts';
import { htmlReply } from './html-reply.ts';
import { errorName, logEvent } from '../submit/log.ts';
import { internalError, type ActionPipeline, type InvocationContext } from '../actions/pipeline.ts';
import { CHANNEL_HEADER, claimedChannel, httpChannel, userAgentProduct } from '../../contract/source.ts';
import { clientNetworkKey } from '../gate/client-network.ts';
import { crossSiteRefusal } from './cross-site.ts';
import { httpWords } from './words.ts';
import { consentPageAnswer, consentReplyPage } from './consent-reply.ts';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': `content-type, idempotency-key, ${CHANNEL_HEADER}`,
  'access-control-expose-headers': 'retry-after, idempotent-replayed, location',
};

const POST_REFUSED: Record<PostRefusal, () => Reply> = {
  'media-type': () =>
    problem(
      'unsupported-media-type',
      'Send application/json (or application/x-www-form-urlencoded from the proposal workspace form).',
    ),
  'too-large': () =>
    problem('payload-too-large', 'The body is larger than the documented max_body_bytes limit of the contract.'),
  unreadable: () => problem('malformed-json', 'The request body could not be read.'),
  'malformed-json': () => problem('malformed-json', 'The body is not valid JSON.'),
};

type Parsed = { body: Record<string, unknown>; key?: string | undefined };

/**
 * One reading of a form: a field sent twice is refused, never resolved, so the reply page (which
 * shows what was posted) and the pipeline cannot each take a different one of its values.
 */
function duplicatedFields(params: URLSearchParams): Reply | undefined {
  const names = [...params.keys()];
  const twice = [...new Set(names.filter((name, index) => names.indexOf(name) !== index))];
  if (twice.length === 0) return undefined;
  return problem('invalid-request', 'A field was sent more than once; send each field once.', {
    // The name is the form's own field name or an unknown one; neither is a value.
    errors: twice.map((name) => ({ pointer: `#/${encodeURIComponent(name)}`, detail: 'sent more than once' })),
  });
}

/** A form post carries strings; these fields become the JSON types the contract expects. */
function formBody(raw: string): Parsed | Reply {
  const params = new URLSearchParams(raw);
  const duplicated = duplicatedFields(params);
  if (duplicated !== undefined) return duplicated;
  // Object.create(null): keys such as "__proto__" stay plain data and the schema rejects them.
  const body = Object.create(null) as Record<string, unknown>;
  let key: string | undefined;
  for (const [name, sent] of params) {
    const value = sent.trim();
    if (name === 'idempotency_key') key = value || undefined;
    else if (value === '' && name !== 'website') continue;
    else if (name === 'consent') body[name] = ['on', 'true', 'yes', '1'].includes(value.toLowerCase()) ? true : value;
    else if (name === 'form_started_at' && /^\d{1,16}$/.test(value)) body[name] = Number(value);
    else body[name] = value;
  }
  if (body.website === '') delete body.website;
  return { body, key };
}

function jsonBody(value: unknown): Parsed | Reply {
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return { body: value as Record<string, unknown> };
  return problem('invalid-request', 'The body must be a JSON object.', {
    errors: [{ pointer: '#', detail: 'must be an object' }],
  });
}

/** A delay is the body's `retry_after_seconds` on every door; over HTTP it is also the Retry-After header. */
function withRetryAfter(reply: Reply): Reply {
  const seconds = (reply.body as { retry_after_seconds?: unknown } | null)?.retry_after_seconds;
  const set = Object.keys(reply.headers ?? {}).some((name) => name.toLowerCase() === 'retry-after');
  if (typeof seconds !== 'number' || set) return reply;
  return { ...reply, headers: { ...reply.headers, 'retry-after': String(seconds) } };
}

/** GET /api/proposal is the contract file the CDN serves (netlify.toml); the function takes no GET. */
export function createProposalHandler(k: Knowledge, pipeline: ActionPipeline) {
  const door = httpWords(k.urls.proposal_api);
  async function route(req: Request, form: boolean, context: InvocationContext | undefined): Promise<Reply> {
    // The hosts /mcp answers on, checked alike (gate/hosts.ts): against DNS rebinding.
    const foreign = foreignHost(req, allowedHosts(k.urls.home, readEnv));
    if (foreign) {
      return problem(
        'cross-site-request',
        `This request's ${foreign} names a host this site is not served on, as a page of another site that resolves its own name to this server would send. Nothing was processed.`,
      );
    }
    if (req.method === 'OPTIONS') return { status: 204, body: null };
    const refused = crossSiteRefusal(req, k.urls.home);
    if (refused !== undefined) return refused;
    if (req.method !== 'POST') {
      return problem('method-not-allowed', 'POST a JSON body; GET /api/proposal serves the contract.', {
        headers: { allow: 'GET, POST, OPTIONS' },
      });
    }
    const raw = await readPost(req, ['json', 'form'], MAX_BODY_BYTES);
    if ('refused' in raw) return POST_REFUSED[raw.refused]();
    // The confirmation page's form without JavaScript posts to the page's own address: the answer is
    // the page's, the request and token the query's; the form's own body carries nothing.
    const answer = consentPageAnswer(req.url);
    const parsed = answer ? { body: answer } : form ? formBody(raw.text) : jsonBody(raw.json);
    if ('status' in parsed) return parsed;
    return pipeline.run({
      body: parsed.body,
      idempotencyKey: req.headers.get('idempotency-key'),
      door,
      source: {
        channel: httpChannel(form),
        claimed_channel: claimedChannel(req.headers.get(CHANNEL_HEADER)),
        client: userAgentProduct(req.headers.get('user-agent')),
        // The platform's view of the client (Netlify: the connecting address; netlify serve: the socket's).
        network: clientNetworkKey(context?.ip),
      },
      ...(form ? { form: { raw: raw.text, key: parsed.key } } : {}),
    });
  }

  return async function handle(req: Request, context?: InvocationContext): Promise<Response> {
    pipeline.scheduleSweep(context);
    let form = mediaTypeOf(req.headers.get('content-type')) === 'form';
    // A form post's reply page shows the form again with what was typed, so keep a copy to read.
    const copy = form && req.method === 'POST' ? req.clone() : undefined;
    let routed: Reply;
    try {
      routed = await route(req, form, context);
    } catch (error) {
      logEvent('unexpected_error', { name: errorName(error) });
      routed = internalError();
      form = false;
    }
    const reply = withRetryAfter(withProblemBase(routed, k.urls.agents));
    const accept = req.headers.get('accept') ?? '';
    const wantsHtml = form || (/\btext\/html\b/.test(accept) && !/json/.test(accept));
    if (wantsHtml && consentPageAnswer(req.url)) return consentReplyPage(k, reply);
    if (wantsHtml && reply.status !== 204) {
      // A refused cross-site post is not shown back: its values are another site's, not the visitor's.
      const shown = copy !== undefined && reply.status !== 413 && reply.status !== 403;
      const posted = shown ? new URLSearchParams(await copy.text().catch(() => '')) : undefined;
      return htmlReply(k, reply, posted);
    }
    const headers = new Headers(CORS);
    for (const [name, value] of Object.entries(reply.headers ?? {})) headers.set(name, value);
    return new Response(reply.body === null ? null : JSON.stringify(reply.body), { status: reply.status, headers });
  };
}
