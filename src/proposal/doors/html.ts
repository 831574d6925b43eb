/**
 * The replies to a no-JavaScript post, in the site's frame: the workspace's (its result, and the
 * workspace again with all typed) and the confirmation pages' (what happened, or that nothing changed).
 */
import type { Knowledge } from '../../contract/knowledge.ts';
import { FORM_FIELDS } from '../../contract/fields.ts';
import { isProblemType, type Reply } from '../../contract/http.ts';
import type { GuideReply } from '../actions/guide.ts';
import type { SummarizeReply } from '../actions/summarize.ts';
import {
  CONSENT_MISSING,
  guideView,
  missingAtFields,
  problemView,
  summaryOutcome,
  submitView,
  summaryView,
  viewToHtml,
  type ProblemBody,
  type SubmitReply,
} from '../../shared/workspace/reply-view.ts';
import { displayValue, workspaceFormsHtml, type FormState } from '../../shared/workspace/form.ts';
import { answeredView, linkProblemView, type AnswerReply } from '../../shared/consent/link-view.ts';
import { CONSENT_PAGES } from '../../contract/paths.ts';
import { escapeHtml as esc } from '../../text/escape-html.ts';

/** `frame`: the site's header and footer, cut from the built /proposal page (src/integrations/build-outputs.ts). */
export type ReplyKnowledge = Knowledge & { stylesheet?: string; frame?: { header: string; footer: string } };

type Values = Record<string, string>;
/** `lead` is shown above the workspace; `form` is absent once the request is done. */
type Page = { title: string; lead: string; form?: FormState };

function problemPage(body: ProblemBody, values: Values): Page {
  // A missing consent is said once, at the box; the top of the page only points there.
  if (isProblemType(body.type, 'consent-required'))
    return {
      title: 'Please check your request',
      lead: `<div class="reply problem" role="alert"><p>One thing is missing before sending: <a href="#f-consent">your consent in step 4</a>. Everything you typed is kept.</p></div>`,
      form: { values, errors: { consent: CONSENT_MISSING }, canSend: true },
    };
  // Only a page of another site posts here cross-site: nothing it sent is shown back, and there is no form to fill.
  if (isProblemType(body.type, 'cross-site-request'))
    return {
      title: body.title ?? 'A browser request from another site is refused',
      lead: `<div class="reply problem" role="alert"><p>Requests are taken only from this site’s own proposal page. Nothing was sent.</p></div>`,
    };
  const sensitive = isProblemType(body.type, 'sensitive-data');
  const view = problemView(body, (field) => FORM_FIELDS.includes(field) || field === 'consent');
  const { atFields } = view;
  // A value refused as a likely secret is not sent back into the page.
  const kept = sensitive ? Object.fromEntries(Object.entries(values).filter(([name]) => !(name in atFields))) : values;
  return {
    title: view.title,
    lead: `<div class="reply problem" role="alert">${viewToHtml(view.body, 'h2')}${
      sensitive ? '<p>Fields that looked like a secret were cleared; describe what they held instead.</p>' : ''
    }<p>Everything else you typed is still in the form below.</p></div>`,
    form: { values: kept, errors: atFields, canSend: true },
  };
}

function guidePage(g: GuideReply, values: Values): Page {
  const model = g.engagement_model;
  // The suggested model is preselected in step 2 unless the person already chose one.
  const preselected = !!model && !values['engagement_model'];
  const filled = preselected ? { ...values, engagement_model: model.id } : values;
  const view = guideView(g, { preselected });
  return {
    title: view.title,
    lead: `<div class="reply">${viewToHtml(view.body, 'h2')}<p><a href="#step-request">Continue with step 2 below</a>; what you typed is kept.</p></div>`,
    form: { values: filled, canSend: true },
  };
}

function summaryPage(k: Knowledge, s: SummarizeReply, values: Values): Page {
  // Select fields read as their option names ("Defined project"), never as ids.
  const view = summaryView(s, (name, value) => (values[name] ? displayValue(k, name, values[name]) : value));
  return {
    title: view.title,
    lead: `<p class="lead">${esc(summaryOutcome(s))} Everything you typed is kept below.</p>`,
    form: {
      values,
      // What is missing is marked at its field, as the workspace's script marks it.
      errors: missingAtFields(s),
      canSend: true,
      reviewHtml: `<div class="ws-out" id="o-summarize">${viewToHtml(view.body, 'h3')}</div>`,
    },
  };
}

/** The outcome in place of the form: a sent request is done, a pending one is delivered without another press. */
function submitPage(b: SubmitReply, values: Values): Page {
  const view = submitView(b, { email: values['email'], company: values['company'] });
  return { title: view.title, lead: `<div class="reply" role="status">${viewToHtml(view.body, 'h2')}</div>` };
}

function formValues(params: URLSearchParams | undefined): Values {
  const values: Values = {};
  for (const name of [...FORM_FIELDS, 'form_started_at']) {
    const value = params?.get(name)?.trim();
    if (value) values[name] = value;
  }
  return values;
}

/** A successful reply's body names its action (guide and summarize), or is a submit's (a status). */
export function htmlReply(k: ReplyKnowledge, reply: Reply, headers: Headers, params?: URLSearchParams): Response {
  const values = formValues(params);
  const body = reply.body as GuideReply | SummarizeReply | SubmitReply;
  const page =
    reply.status >= 400
      ? problemPage(reply.body as ProblemBody, values)
      : !('action' in body)
        ? submitPage(body, values)
        : body.action === 'guide'
          ? guidePage(body, values)
          : summaryPage(k, body, values);
  const main = `${page.lead}
${page.form ? workspaceFormsHtml(k, page.form) : `<p class="actions"><a class="button secondary" href="/proposal">Start a new request</a> <a href="/">${esc(k.partner.name)} home</a></p>`}`;
  const response = framed(k, page.title, main, reply.status, 'strict-origin-when-cross-origin', 'wide');
  // The protocol headers that keep their meaning on an HTML page.
  for (const name of ['retry-after', 'idempotent-replayed'])
    if (headers.has(name)) response.headers.set(name, headers.get(name)!);
  return response;
}

/** A page in the site's frame; no-store and nosniff are every reply's (gates.ts), the page's own policy is its CSP. */
function framed(k: ReplyKnowledge, title: string, main: string, status: number, referrer: string, wide = ''): Response {
  const frame = k.frame ?? { header: '', footer: '' };
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} | ${esc(k.partner.name)}</title><meta name="robots" content="noindex">
${k.stylesheet ? `<link rel="stylesheet" href="${esc(k.stylesheet)}">` : ''}<link rel="icon" href="/favicon.svg" type="image/svg+xml"></head>
<body><a class="skip" href="#main">Skip to content</a>${frame.header}<main id="main"${wide ? ` class="${wide}"` : ''}><h1>${esc(title)}</h1>${main}
</main>${frame.footer}</body></html>`;
  const headers = new Headers({
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy':
      "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    'referrer-policy': referrer,
  });
  return new Response(html, { status, headers });
}

/** The action a post to a confirmation page's address asks for, with the request and token its query carries. */
export function consentPageAnswer(url: string): Record<string, unknown> | undefined {
  const { pathname, searchParams } = new URL(url);
  const path = pathname.replace(/\.html$/, '');
  const action =
    path === CONSENT_PAGES.confirm ? 'confirm_request' : path === CONSENT_PAGES.deny ? 'deny_request' : undefined;
  if (action === undefined) return undefined;
  return { action, request_id: searchParams.get('request') ?? '', token: searchParams.get('token') ?? '' };
}

/** What happened, or the problem and that nothing changed, in the words the page's script shows (shared/consent/link-view.ts). */
export function consentReplyPage(k: ReplyKnowledge, reply: Reply): Response {
  const ok = reply.status < 300;
  const view = ok
    ? answeredView(reply.body as AnswerReply, k.partner)
    : linkProblemView(reply.body as ProblemBody | null, reply.status, undefined, k.partner);
  const main = `
<div class="reply${ok ? '' : ' problem'}" role="${ok ? 'status' : 'alert'}">${viewToHtml(view.body, 'h2')}</div>
<p class="actions"><a href="/">${esc(k.partner.name)} home</a></p>`;
  return framed(k, view.title, main, reply.status, 'no-referrer');
}
