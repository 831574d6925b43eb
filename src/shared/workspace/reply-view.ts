/** What a reply says to a person, as a tree both the no-JS reply page and the workspace script render. Browser-safe. */
import { fieldOfPointer, labelOfField } from '../../contract/fields.ts';
import { isProblemType, type FieldError } from '../../contract/http.ts';
import { escapeHtml } from '../../text/escape-html.ts';
import type { GuideReply } from '../../proposal/actions/guide.ts';
import type { SummarizeReply } from '../../proposal/actions/summarize.ts';
import type { failedReplyBody, pendingReplyBody, receivedReplyBody } from '../../contract/submit-replies.ts';

/** Said once, at the consent box, with or without JavaScript. */
export const CONSENT_MISSING = 'Nothing is sent without your consent: tick this box to agree.';

/** `section` is a heading one level below the reply's title (h2 under a page's h1, h3 under a panel's h2). */
export type ViewTag = 'section' | 'p' | 'ul' | 'li' | 'dl' | 'dt' | 'dd' | 'strong' | 'code' | 'a' | 'span';

export interface ViewElement {
  tag: ViewTag;
  attrs: Record<string, string>;
  children: ViewNode[];
}

export type ViewNode = string | false | null | undefined | ViewElement | readonly ViewNode[];

export interface ReplyView {
  title: string;
  body: ViewNode[];
}

export const el = (tag: ViewTag, attrs: Record<string, string> | null, ...children: ViewNode[]): ViewElement => ({
  tag,
  attrs: attrs ?? {},
  children,
});

const list = (items: readonly ViewNode[]) => el('ul', null, ...items.map((item) => el('li', null, item)));

/** A link that moves focus to a form field (`data-focus`: the workspace script's click handler). */
export const fieldLink = (name: string, text: string): ViewElement =>
  el('a', { href: `#f-${name}`, 'data-focus': name }, text);

export type SubmitReply =
  ReturnType<typeof receivedReplyBody> | ReturnType<typeof pendingReplyBody> | ReturnType<typeof failedReplyBody>;

/** Capability links are absolute on the canonical host; keep them on the host serving the page. */
function onThisHost(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.hash}`;
}

/** `preselected`: the suggested engagement model was filled into step 2. */
export function guideView(g: GuideReply, opts: { preselected: boolean }): ReplyView {
  const model = g.engagement_model;
  return {
    title: 'Guidance for your question',
    body: [
      el('p', null, g.notice),
      el('section', null, 'Capabilities that fit'),
      g.capabilities.length > 0
        ? list(
            g.capabilities.map((c) => [
              el('a', { href: onThisHost(c.url) }, c.name),
              `: ${c.summary} `,
              el('span', { class: 'hint' }, `Why: ${c.why}.`),
            ]),
          )
        : el('p', null, 'No single capability stands out yet; an assessment is a good start.'),
      model && [
        el('section', null, 'Suggested engagement model'),
        el(
          'p',
          null,
          el('strong', null, model.name),
          `: ${model.description} `,
          el('span', { class: 'hint' }, `Best when: ${model.why}`),
        ),
        opts.preselected &&
          el('p', { class: 'hint' }, 'Preselected in step 2; change it there if another model fits better.'),
      ],
      el('section', null, 'Cloud program context'),
      el('p', null, g.cloud_program_context.summary),
      el('p', { class: 'hint' }, g.cloud_program_context.disclaimer),
      el('section', null, 'Prepare'),
      list(g.prepare),
    ],
  };
}

/** `shown` gives a field's value as a person reads it (a select's option text, not its id). */
export function summaryView(s: SummarizeReply, shown: (name: string, value: string) => string): ReplyView {
  const section = (title: string, fields: Record<string, string | undefined>) => {
    const rows = Object.entries(fields).filter((e): e is [string, string] => !!e[1]);
    return (
      rows.length > 0 && [
        el('section', null, title),
        el(
          'dl',
          null,
          rows.map(([name, value]) => [el('dt', null, labelOfField(name)), el('dd', null, shown(name, value))]),
        ),
      ]
    );
  };
  const missing = [...s.missing_fields, ...s.missing_contact_fields];
  return {
    title: 'Your request, for review',
    body: [
      el('p', null, 'Nothing has been sent yet.'),
      section('Your request', s.overview.intake),
      section('Context', s.overview.context),
      section('Contact', s.overview.contact),
      missing.length > 0 && [
        el('section', null, 'Still missing'),
        list(missing.map((m) => fieldLink(m.field, `Add: ${m.label}`))),
      ],
      el('section', null, 'Check before sending'),
      list(s.warnings),
      el(
        'p',
        null,
        el(
          'strong',
          null,
          s.ready_to_submit
            ? 'Ready to send: give your consent in step 4.'
            : 'Fill in what is missing, then review again or send.',
        ),
      ),
    ],
  };
}

/** "Received" only when the CRM accepted it; an email only when one was sent. `retryIn`: seconds to the workspace's next try. */
export function submitView(r: SubmitReply, email: string | undefined, retryIn?: number): ReplyView {
  const reference = (text: string) => el('p', null, text, ' Reference: ', el('code', null, r.request_id), '.');
  if (r.status === 'received') {
    return {
      title: 'Proposal request received',
      body: [
        reference('Our customer-relationship system has accepted your request.'),
        // Otherwise the reply's own message, whose email sentence comes from contract/submit-replies.ts.
        r.confirmation_email === 'sent' && email
          ? [
              el('p', null, `A confirmation email was sent to ${email}.`),
              el('p', null, 'A person reads every request and replies by email.'),
            ]
          : el('p', null, r.message),
      ],
    };
  }
  if (r.status === 'failed') {
    return {
      title: 'Proposal request stored; our team follows up',
      body: [
        reference(
          'Your request is stored safely, but our customer-relationship system did not accept it in time. Our team has been told and replies by email; there is no need to send it again.',
        ),
      ],
    };
  }
  return {
    title: 'Proposal request stored, delivery pending',
    body: [
      reference(
        'Your request is stored safely, but our customer-relationship system has not accepted it yet. It is delivered without any action from you, and the confirmation email follows.',
      ),
      el(
        'p',
        null,
        retryIn === undefined
          ? 'Sending the same request again is safe and shows the outcome; it is never stored twice.'
          : `We will keep trying while this page is open (next try in about ${retryIn} seconds), and keep delivering after you close it. It is never stored twice.`,
      ),
      el('p', null, 'No confirmation email has been sent yet.'),
    ],
  };
}

/** An RFC 9457 problem as the API sends it. */
export type ProblemBody = { type?: string; title?: string; detail?: string; errors?: FieldError[] };

/** The problem in a few words; the contract's wording ("does not match the contract") speaks to API clients. */
export const problemSummary = (p: ProblemBody): string =>
  isProblemType(p.type, 'invalid-request')
    ? 'Some fields are missing or not valid'
    : (p.title ?? 'The request was refused');

/**
 * Problem details as a list whose errors link to their fields where the page shows them (`onPage`);
 * `atFields`: the message each of those fields shows.
 */
export function problemView(
  p: ProblemBody,
  status: number,
  onPage: (field: string) => boolean,
): ReplyView & { atFields: Record<string, string> } {
  const atFields: Record<string, string> = {};
  const items = (p.errors ?? []).map((e) => {
    const name = fieldOfPointer(e.pointer);
    const label = labelOfField(name || 'request');
    if (!onPage(name)) return `${label} ${e.detail}.`;
    atFields[name] = `${label} ${e.detail}.`;
    return [fieldLink(name, label), ` ${e.detail}.`];
  });
  return {
    // Too many requests, or a fault on our side: nothing in the request to check.
    title: status >= 429 ? 'The request did not go through' : 'Please check your request',
    body: [
      // People get the list of fields instead of the detail written for API clients.
      el('p', null, `${problemSummary(p)}.`, !isProblemType(p.type, 'invalid-request') && p.detail && ` ${p.detail}`),
      items.length > 0 && list(items),
    ],
    atFields,
  };
}

/** Markup for a page (html-reply.ts): every text escaped; `section` at the given heading level. */
export function viewToHtml(nodes: readonly ViewNode[], sectionTag: 'h2' | 'h3'): string {
  return nodes
    .map((node): string => {
      if (node === false || node === null || node === undefined) return '';
      if (typeof node === 'string') return escapeHtml(node);
      if (Array.isArray(node)) return viewToHtml(node, sectionTag);
      const element = node as ViewElement;
      const tag = element.tag === 'section' ? sectionTag : element.tag;
      const attrs = Object.entries(element.attrs)
        .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
        .join('');
      return `<${tag}${attrs}>${viewToHtml(element.children, sectionTag)}</${tag}>`;
    })
    .join('');
}
