/**
 * POST /api/proposal, the HTTP API and the workspace's form (the confirmation pages' forms post to their
 * own addresses): parses the body for the pipeline and answers in JSON, or in HTML to a form.
 */
import { httpWords, problem, withProblemBase, type ProblemType, type Reply } from '../../contract/http.ts';
import { MAX_BODY_BYTES } from '../../contract/fields.ts';
import { CHANNEL_HEADER, claimedChannel, httpChannel, userAgentProduct } from '../../contract/source.ts';
import { errorName, logEvent } from '../log.ts';
import { isObject } from '../store/blobs.ts';
import { internalError, runAction, type Intake, type Invocation } from '../actions/pipeline.ts';
import { allowedHosts, foreignHost, mediaTypeOf, readPost, type PostRefusal } from './gates.ts';
import { consentPageAnswer, consentReplyPage, htmlReply, type ReplyKnowledge } from './html.ts';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': `content-type, idempotency-key, ${CHANNEL_HEADER}`,
  'access-control-expose-headers': 'retry-after, idempotent-replayed, location',
};

const POST_REFUSED: Record<PostRefusal, [ProblemType, string]> = {
  'media-type': [
    'unsupported-media-type',
    'Send application/json (or application/x-www-form-urlencoded from the proposal workspace form).',
  ],
  'too-large': ['payload-too-large', 'The body is larger than the documented max_body_bytes limit of the contract.'],
  unreadable: ['malformed-json', 'The request body could not be read.'],
  'malformed-json': ['malformed-json', 'The body is not valid JSON.'],
};

/**
 * A browser POST from another site's page (a form post needs no preflight, so any page could submit through its
 * visitors). Pages cannot forge Sec-Fetch-Site and Origin; non-browsers send neither ('none': the person typed it).
 */
function crossSite(req: Request, home: string): boolean {
  const site = req.headers.get('sec-fetch-site')?.trim().toLowerCase() ?? 'none';
  const origin = req.headers.get('origin')?.trim();
  const own = [new URL(req.url).origin, new URL(home).origin];
  return !['same-origin', 'none'].includes(site) || (origin !== undefined && !own.includes(origin));
}

/** One reading of a form: a field sent twice is refused, so the reply page and the pipeline cannot each take a different value. */
function formBody(raw: string): { body: Record<string, unknown>; key?: string } | Reply {
  const params = new URLSearchParams(raw);
  const names = [...params.keys()];
  const twice = [...new Set(names.filter((name, i) => names.indexOf(name) !== i))];
  if (twice.length > 0)
    return problem('invalid-request', 'A field was sent more than once; send each field once.', {
      errors: twice.map((name) => ({ pointer: `#/${encodeURIComponent(name)}`, detail: 'sent more than once' })),
    });
  // Object.create(null): keys such as "__proto__" stay plain data and the schema rejects them.
  const body = Object.create(null) as Record<string, unknown>;
  let key: string | undefined;
  for (const [name, sent] of params) {
    const value = sent.trim();
    if (name === 'idempotency_key') key = value || undefined;
    else if (value === '') continue;
    else if (name === 'consent') body[name] = ['on', 'true', 'yes', '1'].includes(value.toLowerCase()) ? true : value;
    else if (name === 'form_started_at' && /^\d{1,16}$/.test(value)) body[name] = Number(value);
    else body[name] = value;
  }
  return { body, ...(key !== undefined && { key }) };
}

export function createHttpDoor(intake: Intake, k: ReplyKnowledge) {
  const door = httpWords(k.urls.proposal_api);
  const hosts = allowedHosts(k.urls.home, intake.config.deployUrls);

  async function route(req: Request, form: boolean, inv: Invocation): Promise<Reply> {
    const foreign = foreignHost(req, hosts);
    if (foreign)
      return problem(
        'cross-site-request',
        `This request's ${foreign} names a host this site is not served on, as a page of another site that resolves its own name to this server would send. Nothing was processed.`,
      );
    if (req.method === 'OPTIONS') return { status: 204, body: null };
    if (req.method !== 'POST')
      return problem('method-not-allowed', 'POST a JSON body; GET /api/proposal serves the contract.', {
        headers: { allow: 'GET, POST, OPTIONS' },
      });
    if (crossSite(req, k.urls.home))
      return problem(
        'cross-site-request',
        'This POST came from a page of another site in a browser, and only the pages of this site may submit through a browser. Nothing was processed.',
      );
    const post = await readPost(req, ['json', 'form'], MAX_BODY_BYTES);
    if ('refused' in post) return problem(...POST_REFUSED[post.refused]);
    inv.body = post.bytes;
    // A confirmation page's form without JavaScript posts to the page's own address: the answer is the page's, request and token the query's.
    const answer = consentPageAnswer(req.url);
    const parsed = answer ? { body: answer } : form ? formBody(post.text) : { body: post.json };
    if ('status' in parsed) return parsed;
    if (!isObject(parsed.body))
      return problem('invalid-request', 'The body must be a JSON object.', {
        errors: [{ pointer: '#', detail: 'must be an object' }],
      });
    return runAction(intake, inv, {
      body: parsed.body,
      idempotencyKey: req.headers.get('idempotency-key'),
      door,
      source: {
        channel: httpChannel(form),
        claimed_channel: claimedChannel(req.headers.get(CHANNEL_HEADER)),
        client: userAgentProduct(req.headers.get('user-agent')),
      },
      ...(form && { form: { raw: post.text, key: 'key' in parsed ? parsed.key : undefined } }),
    });
  }

  return async function handle(inv: Invocation): Promise<Response> {
    const req = inv.request;
    let form = mediaTypeOf(req.headers.get('content-type')) === 'form';
    // A form post's reply page shows the form again with what was typed.
    const copy = form && req.method === 'POST' ? req.clone() : undefined;
    const routed = await route(req, form, inv).catch((error: unknown) => {
      logEvent('unexpected_error', { name: errorName(error) });
      form = false;
      return internalError();
    });
    const reply = withProblemBase(routed, k.urls.agents);
    const headers = new Headers({ ...CORS, ...reply.headers });
    // A delay is the body's retry_after_seconds on every door; over HTTP also the Retry-After header.
    const seconds = (reply.body as { retry_after_seconds?: unknown } | null)?.retry_after_seconds;
    if (typeof seconds === 'number' && !headers.has('retry-after')) headers.set('retry-after', String(seconds));
    const accept = req.headers.get('accept') ?? '';
    const wantsHtml = form || (/\btext\/html\b/.test(accept) && !/json/.test(accept));
    if (wantsHtml && consentPageAnswer(req.url)) return consentReplyPage(k, reply);
    if (wantsHtml && reply.status !== 204) {
      // A refused cross-site post is not shown back: its values are another site's, not the visitor's.
      const shown = copy !== undefined && reply.status !== 413 && reply.status !== 403;
      return htmlReply(k, reply, headers, shown ? new URLSearchParams(await copy.text().catch(() => '')) : undefined);
    }
    return new Response(reply.body === null ? null : JSON.stringify(reply.body), { status: reply.status, headers });
  };
}
