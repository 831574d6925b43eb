/**
 * What people read. Sales get the lead in their words, Reply-To the prospect, bookkeeping last; the chat
 * message names no person (channels are read by many and kept for years). The confirmation goes to an
 * address nobody verified: it repeats nothing the sender wrote, only the site's names for their choices.
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

const lines = (...text: string[]) => `${text.join('\n')}\n`;

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

function consentWords({ consent: c }: ProposalRecord): string {
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

/** The lead in lines, sender text on one line each: the person, the company, the request, where it came from. */
function leadText(r: ProposalRecord, p: Partner, opening: string[]): string {
  const named = (id: string | undefined) => (id === undefined ? undefined : (p.choiceLabels[id] ?? id));
  const line = (label: string, value: string | undefined) =>
    value === undefined ? [] : [`${label}: ${singleLine(value)}`];
  return lines(
    ...opening,
    '',
    ...(['name', 'email', 'role', 'phone', 'company'] as const).flatMap((f) => line(FIELD_LABELS[f], r.contact[f])),
    ...line(FIELD_LABELS.company_size, named(r.guidance.company_size)),
    ...line(FIELD_LABELS.industry, r.guidance.industry),
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
    '',
    `Reference: request ${r.request_id}, received ${personalTime(r.received_at)}; consent ${r.consent.digest?.slice(0, 20) ?? ''}; ${signalsLine(r.signals)}`,
  );
}

/** A lead's headline: "Ann Example, CTO at Example GmbH". */
const who = ({ contact: c }: ProposalRecord) =>
  `${singleLine(c.name)}${c.role === undefined ? ' at' : `, ${singleLine(c.role)} at`} ${singleLine(c.company)}`;

export function noticeMessage(r: ProposalRecord, p: Partner): SalesMessage {
  const needAndModel = [p.choiceLabels[r.guidance.primary_need ?? ''], p.choiceLabels[r.intake.engagement_model ?? '']];
  return {
    subject: `New proposal request: ${headerText(r.contact.company)}`,
    replyTo: r.contact.email,
    text: leadText(r, p, [
      `A new proposal request to ${p.name} from ${who(r)}.`,
      `Reply to this email to write to ${singleLine(r.contact.name)}.`,
    ]),
    chat:
      [
        `New proposal request from ${chatText(r.contact.company)}`,
        ...needAndModel.filter(Boolean),
        ...(r.intake.timeline === undefined ? [] : [`timeline: ${chatText(r.intake.timeline)}`]),
      ].join(' · ') +
      `. Came from ${SOURCE_WORDS(r.source)}. The details are in the email to sales and the CRM; reference ${r.request_id}.`,
    messageId: `notification-${r.request_id}`,
  };
}

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
    text: leadText(r, p, [`A proposal request to ${p.name} from ${who(r)} needs a person: ${why}.`]),
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
    text: lines(
      `The owner of the email address of ${what} pressed "Not me" on the confirmation page: they say they did not send it. It was erased from the site's store. Do not contact the address about it.`,
      crm,
      '',
      `Reference: request ${id}`,
    ),
    chat: `A proposal request from ${chatText(lead.company)} was withdrawn by the address owner ("Not me") and erased. Reference ${id}.`,
    messageId: `erased-${id}`,
  };
}

/** A message whose chat post is its email's text. */
const plain = (subject: string, text: string, messageId: string) => ({ subject, text, chat: text, messageId });

export function digestMessage(
  hour: string,
  counts: { more: number; erasures: number; suspect: number },
  limit: number,
  p: Partner,
): SalesMessage {
  const from = personalTime(`${hour}:00:00.000Z`);
  return plain(
    `${counts.more + counts.erasures} more proposal requests in the hour from ${from}`,
    lines(
      `In the hour from ${from}, ${p.name} received more proposal requests than the ${limit} announced one by one (NOTIFY_LIMIT_PER_HOUR): ${counts.more} more${counts.erasures > 0 ? `, and ${counts.erasures} "Not me" withdrawals` : ''}.`,
      `${counts.suspect} of them carry links in their text or come from an address that sent more requests than it gets emails.`,
      'Every request is stored and delivered to the CRM as usual. List them, with their spam signals, with `npm run inbox` (the deployed site: `npm run inbox -- --site SITE_ID --token TOKEN`).',
    ),
    `digest-${hour}`,
  );
}

export function dayLimitMessage(date: string, limit: number, p: Partner): SalesMessage {
  return plain(
    `Confirmation emails stopped for ${day(date)}: the daily limit of ${limit} was reached`,
    lines(
      `${p.name}'s proposal intake sent ${limit} confirmation emails on ${day(date)} (UTC), its CONFIRMATION_LIMIT_PER_DAY.`,
      'Requests for the rest of the day are stored and delivered as usual, without a confirmation email; sending resumes at midnight UTC. If this is real demand, raise CONFIRMATION_LIMIT_PER_DAY; if it is a flood, `npm run inbox` lists the requests with their spam signals. This alert is sent once a day.',
    ),
    `daily-limit-${date}`,
  );
}

export function questionsMessage(date: string, topics: Record<string, number>): SalesMessage {
  const top = Object.entries(topics).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return {
    subject: `${top.reduce((sum, [, n]) => sum + n, 0)} questions the site could not answer on ${day(date)}`,
    text: lines(
      `Questions the site could not answer on ${day(date)} (UTC): no capability or audience matched them. Counted by their topic words only; nobody's words or details are kept.`,
      '',
      ...top.map(([words, n]) => `${n} × ${singleLine(words)}`),
    ),
    chat: `Questions the site could not answer on ${day(date)}: ${top
      .slice(0, 10)
      .map(([w, n]) => `${chatText(w)} (${n})`)
      .join(', ')}.`,
    messageId: `questions-${date}`,
  };
}

export const configAlertMessage = (date: string, variable: string, reason: string): SalesMessage =>
  plain(
    `Proposal intake misconfigured: requests are held (${variable})`,
    `The proposal intake holds requests for the person's confirmation (CONSENT_CONFIRMATION), but ${variable} ${reason}. Requests are stored and held; fix the variable on Netlify and their confirmation emails go out. Unconfirmed after ${CONSENT_LINK_HOURS.confirm} hours, a held request is deleted.\n`,
    `config-${variable}-${date}`,
  );

/** The confirmation's paragraphs, buttons and small print: one template, rendered as text and as HTML. */
type Block = string | { label: string; url: string; note: string } | { small: string };

export function confirmationMail(r: ProposalRecord, p: Partner, links?: { confirm: string; deny: string }) {
  const need = p.choiceLabels[r.guidance.primary_need ?? ''];
  const model = p.choiceLabels[r.intake.engagement_model ?? ''];
  const about = need && model ? `${need} (${model})` : (need ?? model);
  const blocks: Block[] = [
    'Hello,',
    `Thank you for your proposal request to ${p.name}, ${p.describedAs}. We received it on ${personalTime(r.received_at)}.`,
    ...(about === undefined ? [] : [`You asked about: ${about}.`]),
    ...(links === undefined
      ? []
      : [
          'Was it you who sent it? Please tell us with one click; nothing changes until you press the button on the page the link opens.',
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
        ]),
    `What happens next: ${p.signatory?.name ?? `the ${p.name} team`} reads your request and replies from ${p.email}${p.replyTime === undefined ? '' : ` ${p.replyTime}`}, with questions or a suggestion for a first conversation. Guidance about cloud-provider programs is non-binding: the provider decides eligibility and approval.`,
    'Please never send credentials, passwords, access keys, private architecture diagrams, confidential financial information or other secrets by email.',
    `Kind regards,\n${p.signatory === undefined ? p.name : `${p.signatory.name}\n${p.signatory.role}, ${p.name}`}`,
    {
      small: [
        `You get this email because a proposal request naming this address was sent at ${p.proposalUrl} with agreement to be contacted about it.${links === undefined ? ` If it was not you, write to ${p.email} and we delete it.` : ''}`,
        ...(p.privacyUrl === undefined ? [] : [`How we handle your data: ${p.privacyUrl}`]),
        `Reference: ${r.request_id}`,
      ].join('\n'),
    },
  ];
  const text = blocks.map((b) =>
    typeof b === 'string' ? b : 'small' in b ? b.small : `${b.label} (${b.note}):\n${b.url}`,
  );
  const html = blocks.map((b) =>
    typeof b === 'string'
      ? `<p>${esc(b).replaceAll('\n', '<br>')}</p>`
      : 'small' in b
        ? `<p style="font-size:0.8em;color:#555">${esc(b.small)
            .replace(/https?:\/\/\S+/g, (url) => `<a href="${url}">${url}</a>`)
            .replaceAll('\n', '<br>')}</p>`
        : `<p><a href="${esc(b.url)}" style="display:inline-block;padding:0.5em 1em;border:1px solid #0b5394;border-radius:4px;color:#0b5394;text-decoration:none;font-weight:600">${esc(b.label)}</a><br><span style="font-size:0.85em;color:#555">${esc(b.note)}</span></p>`,
  );
  return {
    subject: `Your proposal request to ${p.name}`,
    text: `${text.join('\n\n')}\n`,
    html: `<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1a1a1a;max-width:36rem">${html.join('')}</body></html>`,
  };
}
