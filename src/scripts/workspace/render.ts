/** The workspace's readable views of the API's replies, built from the reply fields only. */
import { fieldOfPointer, labelOfField } from '../../proposal/fields.ts';
import type { GuideReply } from '../../proposal/guide.ts';
import type { SummarizeReply } from '../../proposal/summarize.ts';
import type { failedReplyBody, pendingReplyBody, receivedReplyBody } from '../../proposal/submit/reply-bodies.ts';
import { fieldLink, h, type Child } from './dom.ts';

export type SubmitReply =
  ReturnType<typeof receivedReplyBody> | ReturnType<typeof pendingReplyBody> | ReturnType<typeof failedReplyBody>;

export interface Problem {
  title?: string;
  detail?: string;
  type?: string;
  errors?: { pointer: string; detail: string }[];
}

/** Capability links are absolute on the canonical host; keep them on the host serving this page. */
const local = (url: string) => {
  const u = new URL(url, location.href);
  return `${u.pathname}${u.hash}`;
};

/** A select's value shown as its option text ("51-200 employees", not "51-200"). */
function shown(name: string, value: string): string {
  const field = document.getElementById(`f-${name}`);
  if (!(field instanceof HTMLSelectElement)) return value;
  return Array.from(field.options).find((o) => o.value === value)?.text ?? value;
}

export function guideView(g: GuideReply, preselected: boolean): Child[] {
  const model = g.engagement_model;
  return [
    h('h2', null, 'Guidance for your question'),
    h('p', null, g.notice),
    h('h3', null, 'Capabilities that fit'),
    g.capabilities.length > 0
      ? h(
          'ul',
          null,
          g.capabilities.map((c) =>
            h(
              'li',
              null,
              h('a', { href: local(c.url) }, c.name),
              `: ${c.summary} `,
              h('span', { class: 'hint' }, `Why: ${c.why}.`),
            ),
          ),
        )
      : h('p', null, 'No single capability stands out yet; an assessment is a good start.'),
    model && [
      h('h3', null, 'Suggested engagement model'),
      h(
        'p',
        null,
        h('strong', null, model.name),
        `: ${model.description} `,
        h('span', { class: 'hint' }, `Best when: ${model.why}`),
      ),
      preselected && h('p', { class: 'hint' }, 'Preselected in step 2; change it there if another model fits better.'),
    ],
    h('h3', null, 'Cloud program context'),
    h('p', null, g.cloud_program_context.summary),
    h('p', { class: 'hint' }, g.cloud_program_context.disclaimer),
  ];
}

export function summaryView(s: SummarizeReply): Child[] {
  const section = (title: string, fields: Record<string, string | undefined>) => {
    const rows = Object.entries(fields).filter((e): e is [string, string] => !!e[1]);
    return (
      rows.length > 0 && [
        h('h3', null, title),
        h(
          'dl',
          null,
          rows.map(([k, v]) => [h('dt', null, labelOfField(k)), h('dd', null, shown(k, v))]),
        ),
      ]
    );
  };
  const missing = [...s.missing_fields, ...s.missing_contact_fields];
  return [
    h('h2', null, 'Your request, for review'),
    h('p', null, 'Nothing has been sent yet.'),
    section('Your request', s.overview.intake),
    section('Context', s.overview.context),
    section('Contact', s.overview.contact),
    missing.length > 0 && [
      h('h3', null, 'Still missing'),
      h(
        'ul',
        null,
        missing.map((m) => h('li', null, fieldLink(m.field, `Add: ${m.label}`))),
      ),
    ],
    h('h3', null, 'Check before sending'),
    h(
      'ul',
      null,
      s.warnings.map((w) => h('li', null, w)),
    ),
    h(
      'p',
      null,
      h(
        'strong',
        null,
        s.ready_to_submit
          ? 'Ready to send: give your consent in step 4.'
          : 'Fill in what is missing, then review again or send.',
      ),
    ),
  ];
}

/** The honest result: "received" only when the CRM accepted it; an email only when one was sent. */
export function submitView(r: SubmitReply, email: string, retryIn: number | undefined): Child[] {
  if (r.status === 'received') {
    return [
      h('h2', null, 'Request received'),
      h(
        'p',
        null,
        'Our customer-relationship system has accepted your request. Reference: ',
        h('code', null, r.request_id),
      ),
      h(
        'p',
        null,
        r.confirmation_email === 'sent'
          ? `A confirmation email was sent to ${email}.`
          : 'No confirmation email was sent; keep the reference above.',
      ),
      h('p', null, 'A person reads every request and replies by email.'),
    ];
  }
  if (r.status === 'failed') {
    return [
      h('h2', null, 'Stored; our team follows up'),
      h(
        'p',
        null,
        'Your request is stored safely, but our customer-relationship system did not accept it in time. Our team has been told and replies by email; there is no need to send it again. Reference: ',
        h('code', null, r.request_id),
      ),
    ];
  }
  return [
    h('h2', null, 'Stored, delivery pending'),
    h(
      'p',
      null,
      'Your request is stored safely, but our customer-relationship system has not accepted it yet. It is delivered without any action from you, and the confirmation email follows. Reference: ',
      h('code', null, r.request_id),
    ),
    h(
      'p',
      null,
      retryIn === undefined
        ? 'You may close this tab; sending it again is safe and never stores it twice.'
        : `We will keep trying while this page is open (next try in about ${retryIn} seconds), and keep delivering after you close it. It is never stored twice.`,
    ),
    h('p', null, 'No confirmation email has been sent yet.'),
  ];
}

/** Problem details with links to the named fields; errors without a field are listed as text. */
export function problemView(p: Problem, heading: string): Child[] {
  return [
    h('h2', null, heading),
    // The contract's wording ("does not match the contract") speaks to API clients; people get the list.
    h(
      'p',
      null,
      p.type?.endsWith('-invalid-request')
        ? 'Some fields are missing or not valid:'
        : [p.title, p.detail].filter(Boolean).join('. '),
    ),
    (p.errors ?? []).length > 0 &&
      h(
        'ul',
        null,
        (p.errors ?? []).map((e) => {
          const name = fieldOfPointer(e.pointer);
          return h(
            'li',
            null,
            fieldFor(name) ? fieldLink(name, labelOfField(name)) : labelOfField(name || 'request'),
            ` ${e.detail}`,
          );
        }),
      ),
  ];
}

export type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** The visible control of a field name; the honeypot does not count. */
export function fieldFor(name: string): Control | undefined {
  const el = name ? document.getElementById(`f-${name}`) : null;
  const control =
    el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement
      ? el
      : undefined;
  return control?.closest('.trap') ? undefined : control;
}
