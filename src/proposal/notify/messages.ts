/**
 * What people read: the confirmation to the prospect (text and HTML from one template) and the sales
 * team's messages. Sales get the lead itself, in their words, with Reply-To set to the prospect;
 * bookkeeping comes last. The chat message carries the company, the need, the model and the timeline,
 * and no name, address or phone: chat channels are read by many and kept for years, so the person's
 * details stay in the email and the CRM. The confirmation goes to an address nobody has verified: it
 * repeats nothing the sender wrote, only the site's names for their choices.
 */
import { CONSENT_LINK_HOURS, type ConsentMethod } from '../../contract/consent.ts';
import { FIELD_LABELS, INTAKE_FIELDS } from '../../contract/fields.ts';
import type { RequestSource } from '../../contract/source.ts';
import { escapeHtml as esc } from '../../text/escape-html.ts';
import { personalTime } from '../../text/personal-time.ts';
import type { ProposalRecord } from '../submit/record.ts';
import { agentIdentityText } from '../../contract/web-bot-auth.ts';
import { signalsLine } from '../limits/spam-signals.ts';
import type { Partner } from './partner.ts';
import { chatText, headerText, singleLine } from './text.ts';

export type SalesMessage = { subject: string; text: string; chat: string; messageId: string; replyTo?: string };

const day = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', dateStyle: 'long' }).format(new Date(iso));

const SOURCE_WORDS = (s: RequestSource | undefined): string => {
  const client = s?.client === undefined ? '' : ` (it calls itself ${s.client})`;
  if (s === undefined) return 'not recorded';
  if (s.channel === 'form') return 'the proposal page on the website, without JavaScript';
  if (s.channel === 'mcp') return `an AI assistant, through the MCP server${client}`;
  if (s.claimed_channel === 'workspace') return 'the proposal page on the website';
  if (s.claimed_channel === 'webmcp' || s.channel === 'webmcp')
    return "an AI assistant in the visitor's browser, using the proposal page's tools (WebMCP)";
  return `an agent or program, through the proposal API${client}`;
};

const CONSENT_WORDS: Record<ConsentMethod, string> = {
  site_form: 'ticked the consent box on our proposal page',
  email_link: 'confirmed by the person, with the link in our confirmation email',
  url_page: 'agreed on our confirmation page, opened from their AI assistant',
  mcp_form_elicitation: "accepted in their AI assistant's consent dialog",
  agent_asserted: 'stated by the sending agent or program',
};

function consentWords(r: ProposalRecord): string {
  const c = r.consent;
  const how = c.method === undefined ? 'given' : CONSENT_WORDS[c.method];
  const confirmed = c.vouched_by === 'first_party' ? '' : '; not yet confirmed by the person';
  const released =
    c.released_unconfirmed === undefined
      ? ''
      : ' (held for confirmation, then sent on because the confirmation email could not be sent)';
  return `${how}${confirmed}${released} (consent text version ${c.version})`;
}

const CRM_WORDS = (r: ProposalRecord) =>
  r.delivery.crm === 'inbox'
    ? "It is stored in the site's inbox (list it with `npm run inbox`)."
    : r.delivery.state === 'received'
      ? `The CRM (${r.delivery.crm}) has it.`
      : r.delivery.state === 'pending'
        ? `The CRM (${r.delivery.crm}) does not have it yet; it is delivered automatically.`
        : `The CRM (${r.delivery.crm}) did not accept it (last error: ${r.delivery.last_error_kind ?? 'unknown'}): it is kept in the site's inbox; enter it by hand.`;

/** The lead in lines: the person, the company, the request, where it came from; `e` escapes sender text for where it lands. */
function leadLines(r: ProposalRecord, p: Partner, e: (v: string) => string): string[] {
  const named = (id: string | undefined) => (id === undefined ? undefined : (p.choiceLabels[id] ?? id));
  const line = (label: string, value: string | undefined) => (value === undefined ? [] : [`${label}: ${e(value)}`]);
  const { contact: c } = r;
  return [
    ...line('Name', c.name),
    ...line('Email', c.email),
    ...line('Role', c.role),
    ...line('Phone', c.phone),
    ...line('Company', c.company),
    ...line('Company size', named(r.guidance.company_size)),
    ...line('Industry', r.guidance.industry),
    '',
    ...line(FIELD_LABELS.primary_need, named(r.guidance.primary_need)),
    ...line(FIELD_LABELS.engagement_model, named(r.intake.engagement_model)),
    ...INTAKE_FIELDS.filter((f) => f !== 'engagement_model').flatMap((f) => line(FIELD_LABELS[f], r.intake[f])),
    ...line(FIELD_LABELS.question, r.guidance.question),
    '',
    `Came from: ${SOURCE_WORDS(r.source)}`,
    `Consent: ${consentWords(r)}`,
    `Agent identity: ${agentIdentityText(r.agent_identity)}`,
    CRM_WORDS(r),
  ];
}

const reference = (r: ProposalRecord) =>
  `Reference: request ${r.request_id}, received ${personalTime(r.received_at)}; consent ${r.consent.digest?.slice(0, 20) ?? ''}; ${signalsLine(r.signals)}`;

/** A lead's headline: "Ann Example, CTO at Example GmbH". */
const who = (r: ProposalRecord, e: (v: string) => string) =>
  `${e(r.contact.name)}${r.contact.role === undefined ? ' at' : `, ${e(r.contact.role)} at`} ${e(r.contact.company)}`;

const chatLine = (r: ProposalRecord, p: Partner, lead: string) =>
  [
    `${lead} from ${chatText(r.contact.company)}`,
    ...[p.choiceLabels[r.guidance.primary_need ?? ''], p.choiceLabels[r.intake.engagement_model ?? '']].filter(Boolean),
    ...(r.intake.timeline === undefined ? [] : [`timeline: ${chatText(r.intake.timeline)}`]),
  ].join(' · ') +
  `. Came from ${SOURCE_WORDS(r.source)}. The details are in the email to sales and the CRM; reference ${r.request_id}.`;

export function noticeMessage(r: ProposalRecord, p: Partner): SalesMessage {
  return {
    subject: `New proposal request: ${headerText(r.contact.company)}`,
    replyTo: r.contact.email,
    text: [
      `A new proposal request to ${p.name} from ${who(r, singleLine)}.`,
      `Reply to this email to write to ${singleLine(r.contact.name)}.`,
      '',
      ...leadLines(r, p, singleLine),
      '',
      reference(r),
      '',
    ].join('\n'),
    chat: chatLine(r, p, 'New proposal request'),
    messageId: `notification-${r.request_id}`,
  };
}

/** Why an alert is owed: the step that gave up, in words. */
const ALERT_REASONS: Record<string, string> = {
  crm: 'the CRM did not accept it, however often it was tried: enter it by hand',
  confirmation_email: 'the confirmation email to the prospect could not be sent: write to them yourself',
  notice_email: 'the notice email to sales could not be sent',
  notice_chat: 'the chat notice could not be posted',
  consent_update: 'the CRM did not take the update that the person confirmed the request: note it by hand',
};

export function alertMessage(r: ProposalRecord, p: Partner, reason: string): SalesMessage {
  const why = ALERT_REASONS[reason] ?? reason;
  return {
    subject: `Action needed: proposal request from ${headerText(r.contact.company)}`,
    replyTo: r.contact.email,
    text: [
      `A proposal request to ${p.name} from ${who(r, singleLine)} needs a person: ${why}.`,
      '',
      ...leadLines(r, p, singleLine),
      '',
      reference(r),
      '',
    ].join('\n'),
    chat: `Action needed on the proposal request from ${chatText(r.contact.company)}: ${why}. The details are in the email to sales; reference ${r.request_id}.`,
    messageId: `alert-${r.request_id}`,
  };
}

/** The erased request in words: its company, need and arrival, kept by the erasure only until this notice is sent. */
export type ErasedLead = { company: string; need?: string; received_at: string; crm: string; delivered: boolean };

export function erasureMessage(id: string, lead: ErasedLead, deletion: 'event' | 'by_hand' | 'none'): SalesMessage {
  const what = `the proposal request from ${singleLine(lead.company)}${lead.need === undefined ? '' : ` (${lead.need})`}, received ${personalTime(lead.received_at)}`;
  const crm = {
    event: `The CRM (${lead.crm}) is sent a deletion event for it (webhook-id ${id}.erased).`,
    by_hand: `Delete it in the CRM (${lead.crm}) by hand: look for "Proposal request ${id}" on the contact.`,
    none: lead.crm === 'inbox' ? 'Nothing else held it.' : 'It had not reached the CRM.',
  }[deletion];
  return {
    subject: `Proposal request from ${headerText(lead.company)} withdrawn: "Not me"`,
    text: [
      `The owner of the email address of ${what} pressed "Not me" on the confirmation page: they say they did not send it. It was erased from the site's store. Do not contact the address about it.`,
      crm,
      '',
      `Reference: request ${id}`,
      '',
    ].join('\n'),
    chat: `A proposal request from ${chatText(lead.company)} was withdrawn by the address owner ("Not me") and erased. Reference ${id}.`,
    messageId: `erased-${id}`,
  };
}

export function digestMessage(
  hour: string,
  counts: { more: number; erasures: number; suspect: number },
  limit: number,
  p: Partner,
): SalesMessage {
  const from = personalTime(`${hour}:00:00.000Z`);
  const text = [
    `In the hour from ${from}, ${p.name} received more proposal requests than the ${limit} announced one by one (NOTIFY_LIMIT_PER_HOUR): ${counts.more} more${counts.erasures > 0 ? `, and ${counts.erasures} "Not me" withdrawals` : ''}.`,
    `${counts.suspect} of them carry links in their text or come from an address that sent more requests than it gets emails.`,
    'Every request is stored and delivered to the CRM as usual. List them, with their spam signals, with `npm run inbox` (the deployed site: `npm run inbox -- --site SITE_ID --token TOKEN`).',
    '',
  ].join('\n');
  return {
    subject: `${counts.more + counts.erasures} more proposal requests in the hour from ${from}`,
    text,
    chat: text,
    messageId: `digest-${hour}`,
  };
}

export function dayLimitMessage(date: string, limit: number, p: Partner): SalesMessage {
  const text = [
    `${p.name}'s proposal intake sent ${limit} confirmation emails on ${day(date)} (UTC), its CONFIRMATION_LIMIT_PER_DAY.`,
    'Requests for the rest of the day are stored and delivered as usual, without a confirmation email; sending resumes at midnight UTC. If this is real demand, raise CONFIRMATION_LIMIT_PER_DAY; if it is a flood, `npm run inbox` lists the requests with their spam signals. This alert is sent once a day.',
    '',
  ].join('\n');
  return {
    subject: `Confirmation emails stopped for ${day(date)}: the daily limit of ${limit} was reached`,
    text,
    chat: text,
    messageId: `daily-limit-${date}`,
  };
}

export function questionsMessage(date: string, topics: Record<string, number>): SalesMessage {
  const top = Object.entries(topics).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const text = [
    `Questions the site could not answer on ${day(date)} (UTC): no capability or audience matched them. Counted by their topic words only; nobody's words or details are kept.`,
    '',
    ...top.map(([words, n]) => `${n} × ${singleLine(words)}`),
    '',
  ].join('\n');
  return {
    subject: `${top.reduce((sum, [, n]) => sum + n, 0)} questions the site could not answer on ${day(date)}`,
    text,
    chat: `Questions the site could not answer on ${day(date)}: ${top
      .slice(0, 10)
      .map(([w, n]) => `${chatText(w)} (${n})`)
      .join(', ')}.`,
    messageId: `questions-${date}`,
  };
}

export function configAlertMessage(date: string, variable: string, reason: string): SalesMessage {
  const text = `The proposal intake holds requests for the person's confirmation (CONSENT_CONFIRMATION), but ${variable} ${reason}. Requests are stored and held; fix the variable on Netlify and their confirmation emails go out. Unconfirmed after ${CONSENT_LINK_HOURS.confirm} hours, a held request is deleted.\n`;
  return {
    subject: `Proposal intake misconfigured: requests are held (${variable})`,
    text,
    chat: text,
    messageId: `config-${variable}-${date}`,
  };
}

/** A paragraph of the confirmation, its links, or its small print: one template, rendered as text and as HTML. */
type Block = { p: string } | { links: { label: string; url: string; note: string }[] } | { small: string[] };

export function confirmationMail(r: ProposalRecord, p: Partner, links?: { confirm: string; deny: string }) {
  const need = p.choiceLabels[r.guidance.primary_need ?? ''];
  const model = p.choiceLabels[r.intake.engagement_model ?? ''];
  const about = need && model ? `${need} (${model})` : (need ?? model);
  const blocks: Block[] = [
    { p: 'Hello,' },
    {
      p: `Thank you for your proposal request to ${p.name}, ${p.describedAs}. We received it on ${personalTime(r.received_at)}.`,
    },
    ...(about === undefined ? [] : [{ p: `You asked about: ${about}.` }]),
    ...(links === undefined
      ? []
      : [
          {
            p: 'Was it you who sent it? Please tell us with one click; nothing changes until you press the button on the page the link opens.',
          },
          {
            links: [
              {
                label: 'Yes, this was me',
                url: links.confirm,
                note: `confirms the request as yours; works for ${CONSENT_LINK_HOURS.confirm} hours`,
              },
              {
                label: 'Not me',
                url: links.deny,
                note: `we delete the request and never contact you about it; works for ${CONSENT_LINK_HOURS.deny / 24} days, also after "Yes"`,
              },
            ],
          },
        ]),
    {
      p: `What happens next: ${p.signatory?.name ?? `the ${p.name} team`} reads your request and replies from ${p.email}${p.replyTime === undefined ? '' : ` ${p.replyTime}`}, with questions or a suggestion for a first conversation. Guidance about cloud-provider programs is non-binding: the provider decides eligibility and approval.`,
    },
    {
      p: 'Please never send credentials, passwords, access keys, private architecture diagrams, confidential financial information or other secrets by email.',
    },
    {
      p: `Kind regards,\n${p.signatory === undefined ? p.name : `${p.signatory.name}\n${p.signatory.role}, ${p.name}`}`,
    },
    {
      small: [
        `You get this email because a proposal request naming this address was sent at ${p.proposalUrl} with agreement to be contacted about it.${links === undefined ? ` If it was not you, write to ${p.email} and we delete it.` : ''}`,
        ...(p.privacyUrl === undefined ? [] : [`How we handle your data: ${p.privacyUrl}`]),
        `Reference: ${r.request_id}`,
      ],
    },
  ];
  const link = (text: string) => esc(text).replace(/https?:\/\/\S+/g, (url) => `<a href="${url}">${url}</a>`);
  const text = blocks
    .map((b) =>
      'p' in b
        ? b.p
        : 'small' in b
          ? b.small.join('\n')
          : b.links.map((l) => `${l.label} (${l.note}):\n${l.url}`).join('\n\n'),
    )
    .join('\n\n');
  const html = `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1a1a1a;max-width:36rem">${blocks
    .map((b) =>
      'p' in b
        ? `<p>${esc(b.p).replaceAll('\n', '<br>')}</p>`
        : 'small' in b
          ? `<p style="font-size:0.8em;color:#555">${b.small.map(link).join('<br>')}</p>`
          : b.links
              .map(
                (l) =>
                  `<p><a href="${esc(l.url)}" style="display:inline-block;padding:0.5em 1em;border:1px solid #0b5394;border-radius:4px;color:#0b5394;text-decoration:none;font-weight:600">${esc(l.label)}</a><br><span style="font-size:0.85em;color:#555">${esc(l.note)}</span></p>`,
              )
              .join(''),
    )
    .join('')}</body></html>`;
  return { subject: `Your proposal request to ${p.name}`, text: `${text}\n`, html };
}
