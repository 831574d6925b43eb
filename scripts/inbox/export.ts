/** What `npm run inbox` prints: the stored requests as a short list or as CSV. Pure, so the CSV rules are tested. */
import { GUIDANCE_FIELDS, INTAKE_FIELDS } from '../../src/contract/fields.ts';
import { consentText } from '../../src/contract/consent.ts';
import { isProposalRecord, type ProposalRecord } from '../../src/proposal/submit/record.ts';
import { singleLine } from '../../src/proposal/notify/text.ts';
import { agentIdentityText } from '../../src/contract/web-bot-auth.ts';

/** A request's state as sales read it: `held` while strict mode waits for the person, else its delivery's. */
export type InboxState = ProposalRecord['delivery']['state'] | 'held';
export const stateOf = (r: ProposalRecord): InboxState => (r.hold !== undefined ? 'held' : r.delivery.state);

/** Valid records only, optionally of one state, oldest first. */
export function selectRecords(values: unknown[], status?: InboxState): ProposalRecord[] {
  return values
    .filter(isProposalRecord)
    .filter((record) => status === undefined || stateOf(record) === status)
    .sort((a, b) => a.received_at.localeCompare(b.received_at));
}

type Column = [header: string, value: (record: ProposalRecord) => string | number | undefined];

/** One row per request: the person and the company first, then the request, then the bookkeeping. */
export const CSV_COLUMNS: Column[] = [
  ['name', (r) => r.contact.name],
  ['email', (r) => r.contact.email],
  ['company', (r) => r.contact.company],
  ['role', (r) => r.contact.role],
  ['phone', (r) => r.contact.phone],
  ...GUIDANCE_FIELDS.map((field): Column => [field, (r) => r.guidance[field]]),
  ...INTAKE_FIELDS.map((field): Column => [field, (r) => r.intake[field]]),
  ['received_at', (r) => r.received_at],
  ['status', stateOf],
  ['crm', (r) => r.delivery.crm],
  ['confirmation_email', (r) => r.confirmation_email.state],
  ['consent', (r) => consentText(r.consent)],
  ['channel', (r) => r.source?.channel],
  ['client', (r) => r.source?.client],
  ['claimed_channel', (r) => r.source?.claimed_channel],
  ['agent_identity', (r) => (r.agent_identity === undefined ? undefined : agentIdentityText(r.agent_identity))],
  ['links', (r) => r.signals?.links],
  ['address_requests_24h', (r) => r.signals?.address_requests_24h],
  ['form_checks', (r) => r.signals?.form_checks],
  ['fill_seconds', (r) => r.signals?.fill_seconds],
  ['last_error_kind', (r) => r.delivery.last_error_kind],
  ['crm_attempts', (r) => r.work?.['crm']?.attempts],
  ['next_attempt_at', (r) => r.work?.['crm']?.next_at],
  ['delivered_at', (r) => r.delivery.delivered_at],
  ['failed_at', (r) => r.delivery.failed_at],
  ['notification_email', (r) => r.notification.email],
  ['notification_chat', (r) => r.notification.chat],
  ['request_id', (r) => r.request_id],
];

/**
 * RFC 4180: CRLF between records, every field in double quotes (csvField); a UTF-8 byte-order mark
 * first, without which some spreadsheet programs read accented names as Latin-1.
 */
export function toCsv(records: ProposalRecord[]): string {
  const rows = [
    CSV_COLUMNS.map(([header]) => csvField(header)),
    ...records.map((record) => CSV_COLUMNS.map(([, value]) => csvField(value(record)))),
  ];
  return `\uFEFF${rows.map((row) => row.join(',')).join('\r\n')}\r\n`;
}

/**
 * One field as OWASP's "CSV Injection" guidance asks: every field quoted (a quote doubled), so no
 * separator starts a cell of its own in any locale; text starting with = + - @ tab or CR gets a
 * leading apostrophe, shown as text, never evaluated.
 */
export function csvField(value: string | number | undefined): string {
  let text = value === undefined ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** The list for the terminal: per request a line of who and what, and one of where it stands. */
export function listText(records: ProposalRecord[]): string {
  const count = (state: InboxState) => records.filter((record) => stateOf(record) === state).length;
  const failed = count('failed');
  const held = count('held');
  const header =
    `${records.length} request${records.length === 1 ? '' : 's'} (${count('pending')} pending, ${count('received')} received` +
    `${held > 0 ? `, ${held} held for the person's confirmation` : ''}` +
    `${failed > 0 ? `, ${failed} FAILED: the CRM never accepted them, follow up by hand` : ''})`;
  const lines = records.map((r) => {
    const what = [
      r.guidance.primary_need,
      r.intake.engagement_model,
      r.intake.timeline && `timeline ${r.intake.timeline}`,
    ];
    const state = stateOf(r);
    return [
      `${r.received_at.slice(0, 16).replace('T', ' ')}  ${singleLine(r.contact.company)}: ${singleLine(r.contact.name)} <${singleLine(r.contact.email)}>`,
      `    ${
        what
          .filter(Boolean)
          .map((part) => singleLine(String(part)))
          .join(' · ') || 'no need or model given'
      }`,
      `    ${state === 'failed' ? 'FAILED' : state} (${r.delivery.crm}), email ${r.confirmation_email.state}, notice ${noticeState(r)}, ${signalsTag(r)}; ${r.request_id}`,
      `    via ${sourceTag(r)}; consent: ${singleLine(consentText(r.consent))}${r.agent_identity === undefined ? '' : `; agent: ${agentIdentityText(r.agent_identity)}`}`,
    ].join('\n');
  });
  return [header, ...lines].join('\n') + '\n';
}

/** Where it came from: the channel the server saw, the client's name and the page it says it came from. */
function sourceTag(record: ProposalRecord): string {
  const s = record.source;
  if (s === undefined) return '-';
  return [
    s.channel,
    ...(s.client === undefined ? [] : [`client ${singleLine(s.client)}`]),
    ...(s.claimed_channel === undefined ? [] : [`says ${s.claimed_channel}`]),
  ].join(', ');
}

/** Spam signals in a few characters: `links 3`, `addr 5`, or `no signals`. */
function signalsTag(record: ProposalRecord): string {
  const s = record.signals;
  const parts = [
    s && s.links > 0 && `links ${s.links}`,
    s && (s.address_requests_24h ?? 0) > 1 && `addr ${s.address_requests_24h}`,
  ];
  return parts.filter(Boolean).join(',') || 'no signals';
}

/** The sales team's notice in one word: sent when any channel sent it. */
function noticeState(record: ProposalRecord): string {
  const n = record.notification;
  return (
    (['sent', 'owed', 'failed', 'in_digest'] as const).find((s) => n.email === s || n.chat === s) ?? 'not_configured'
  );
}
