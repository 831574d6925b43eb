/** What a reply says to a person, as a tree both the no-JS reply page and the workspace script render. Browser-safe. */
import { fieldOfPointer, labelOfField } from '../../contract/fields.ts';
import { isProblemType, type FieldError, type ProblemType } from '../../contract/http.ts';
import { escapeHtml } from '../../text/escape-html.ts';
import type { GuideReply } from '../../proposal/actions/guide.ts';
import type { SummarizeReply } from '../../proposal/actions/summarize.ts';
import {
  CONFIRMATION_EMAIL_TO_PERSON,
  type awaitingReplyBody,
  type failedReplyBody,
  type pendingReplyBody,
  type receivedReplyBody,
} from '../../contract/submit-replies.ts';

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
  | ReturnType<typeof receivedReplyBody>
  | ReturnType<typeof pendingReplyBody>
  | ReturnType<typeof failedReplyBody>
  | ReturnType<typeof awaitingReplyBody>;

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

/** The message each field a review found missing shows at the field. */
export function missingAtFields(
  s: Pick<SummarizeReply, 'missing_fields' | 'missing_contact_fields'>,
): Record<string, string> {
  return Object.fromEntries(
    [...s.missing_fields, ...s.missing_contact_fields].map((m) => [m.field, 'Needed to send your request.']),
  );
}

/** The review's outcome in one sentence: ready, or how many fields are still to fill in (each marked at its field). */
export function summaryOutcome(
  s: Pick<SummarizeReply, 'ready_to_submit' | 'missing_fields' | 'missing_contact_fields'>,
): string {
  const n = s.missing_fields.length + s.missing_contact_fields.length;
  if (s.ready_to_submit || n === 0) return 'Your request is ready to send: give your consent in step 4.';
  return `${n === 1 ? 'One field is' : `${n} fields are`} still to fill in before you can send; ${n === 1 ? 'it is' : 'each is'} marked in step 2.`;
}

/** The person's side of a submit, as typed: where the confirmation went and the company the request is for. */
export interface Sender {
  email?: string | undefined;
  company?: string | undefined;
}

/**
 * A submit's outcome for the person: "received" only when the CRM accepted it, an email only when one
 * was sent; the request named by its company. `retryIn`: seconds to the workspace's next check of a
 * pending request.
 */
export function submitView(r: SubmitReply, who: Sender, retryIn?: number): ReplyView {
  const yours = who.company ? `your request for ${who.company}` : 'your request';
  const email =
    r.confirmation_email === 'sent' && who.email
      ? `We sent a confirmation email to ${who.email}.`
      : CONFIRMATION_EMAIL_TO_PERSON[r.confirmation_email];
  const reference = el(
    'p',
    { class: 'hint' },
    'Its reference, if you write to us about it: ',
    el('code', null, r.request_id),
  );
  const body = (...nodes: ViewNode[]) => [el('p', null, `Thank you: we have ${yours}.`), ...nodes, reference];
  if (r.status === 'received')
    return {
      title: 'Proposal request received',
      body: body(el('p', null, email), el('p', null, 'A person reads every request and replies by email.')),
    };
  // Its message already speaks to the person: what to press, by when, and what happens otherwise.
  if (r.status === 'awaiting_confirmation')
    return { title: 'One step left: confirm it was you', body: body(el('p', null, r.message)) };
  if (r.status === 'failed')
    return {
      title: 'Request saved; our team follows up',
      body: body(
        el(
          'p',
          null,
          'It could not be passed on to our team automatically. They have been told and reply by email; there is no need to send it again.',
        ),
      ),
    };
  return {
    title: 'Request saved, on its way to our team',
    body: body(
      el(
        'p',
        null,
        r.confirmation_email === 'not_sent'
          ? 'It has not reached our team yet, and gets there without anything more from you; the confirmation email follows.'
          : 'It has not reached our team yet, and gets there without anything more from you.',
        retryIn === undefined
          ? ' You can close this page.'
          : ` We check again while this page is open (in about ${retryIn} seconds); you can also close it.`,
      ),
      el('p', null, r.confirmation_email === 'not_sent' ? 'No confirmation email has been sent yet.' : email),
    ),
  };
}

/** An RFC 9457 problem as the API sends it. */
export type ProblemBody = { type?: string; title?: string; detail?: string; errors?: FieldError[] };

const CHECK = 'Please check your request';
const OURS = 'The fault is on our side, not in your request. Please try again in a minute.';

/**
 * Each problem the workspace meets, in people's words: [title, one sentence, whether the fault is the
 * site's (then trying again is offered)]. The API's own titles and details speak to programs.
 */
const FOR_PEOPLE: Partial<Record<ProblemType, readonly [string, string, true?]>> = {
  'invalid-request': [CHECK, 'Some fields are missing or not valid.'],
  'sensitive-data': [CHECK, 'Something in your request looks like a secret. Remove it and describe it instead.'],
  'spam-suspected': [
    'Please send it again',
    'It was sent faster than a person usually fills in the form. Check it, then send it again.',
  ],
  'payload-too-large': [
    'Please shorten your request',
    'It is longer than the form can take. Shorten the longest answers, then send it again.',
  ],
  'idempotency-key-reused': [
    'This request was already sent',
    'It was sent before with other details. Send the changed version as a new request, or start a new one.',
  ],
  'idempotency-key-in-use': [
    'Your request is still on its way',
    'It is being handled right now. Try again in a few seconds.',
    true,
  ],
  'rate-limited': ['Too many requests just now', 'Please wait a minute, then try again.', true],
  'store-unavailable': ['We could not take your request just now', OURS, true],
  'internal-error': ['Something went wrong on our side', OURS, true],
};

/** What the site says when it failed the person: its own page sent something malformed, or the answer was no problem at all. */
const SITE_FAILED = ['Our site did not answer properly', OURS, true] as const;

const wordsFor = (p: ProblemBody | null) =>
  Object.entries(FOR_PEOPLE).find(([type]) => isProblemType(p?.type, type))?.[1] ?? SITE_FAILED;

/** The problem in one sentence, for the workspace's live message. */
export const problemSummary = (p: ProblemBody | null): string => wordsFor(p)[1];

/**
 * A refusal as a person reads it: a list whose errors link to their fields where the page shows them
 * (`onPage`); `atFields`: the message each of those fields shows; `ours`: the site failed, trying again
 * may help. `p` is null when the server answered with no problem at all (a proxy's page, nothing).
 */
export function problemView(
  p: ProblemBody | null,
  onPage: (field: string) => boolean,
): ReplyView & { atFields: Record<string, string>; ours: boolean } {
  const words = wordsFor(p);
  const [title, text, ours = false] = words;
  const atFields: Record<string, string> = {};
  // A malformed request of the page's own has nothing for the person to fix.
  const items = (words === SITE_FAILED ? [] : (p?.errors ?? [])).map((e) => {
    const name = fieldOfPointer(e.pointer);
    const label = labelOfField(name || 'request');
    if (!onPage(name)) return `${label} ${e.detail}.`;
    atFields[name] = `${label} ${e.detail}.`;
    return [fieldLink(name, label), ` ${e.detail}.`];
  });
  return { title, body: [el('p', null, text), items.length > 0 && list(items)], atFields, ours };
}

/** Markup for a page (the function's doors/html.ts): every text escaped; `section` at the given heading level. */
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
