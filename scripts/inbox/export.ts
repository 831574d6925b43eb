/** What `npm run inbox` prints: the stored requests as a short list or as CSV. Pure, so the CSV rules are tested. */
import { CONTACT_FIELDS, GUIDANCE_FIELDS, INTAKE_FIELDS, OPTIONAL_CONTACT_FIELDS } from '../../src/contract/fields.ts';
import { isProposalRecord, type DeliveryState, type ProposalRecord } from '../../src/proposal/submit/record.ts';
import { singleLine } from '../../src/proposal/submit/single-line.ts';
import { agentIdentityText } from '../../src/proposal/agent-identity/text.ts';
import { consentText } from '../../src/contract/consent.ts';

/** Valid records only, optionally of one delivery state, oldest first. */
export function selectRecords(values: unknown[], status?: DeliveryState): ProposalRecord[] {
  return values
    .filter(isProposalRecord)
    .filter((record) => status === undefined || record.delivery.state === status)
    .sort((a, b) => a.received_at.localeCompare(b.received_at));
}

const NOT_RECORDED = 'not recorded';

type Column = [header: string, value: (record: ProposalRecord) => string | number | undefined];

/** One row per request: the delivery state first, then contact, intake, guidance and consent. */
export const CSV_COLUMNS: Column[] = [
  ['request_id', (r) => r.request_id],
  ['received_at', (r) => r.received_at],
  ['status', (r) => r.delivery.state],
  ['crm', (r) => r.delivery.crm],
  ['attempts', (r) => r.delivery.attempts],
  ['last_error_kind', (r) => r.delivery.last_error_kind],
  ['delivered_at', (r) => r.delivery.delivered_at],
  ['crm_reference', (r) => r.delivery.crm_reference],
  ['confirmation_email', (r) => r.confirmation_email.state],
  ['notification_email', (r) => r.notification?.email],
  ['notification_chat', (r) => r.notification?.chat],
  ['links', (r) => r.signals?.links],
  ['address_requests_24h', (r) => r.signals?.address_requests_24h],
  ['form_checks', (r) => r.signals?.form_checks],
  ['fill_seconds', (r) => r.signals?.fill_seconds],
  ['next_attempt_at', (r) => r.delivery.next_attempt_at],
  ['channel', (r) => r.source?.channel],
  ['client', (r) => r.source?.client],
  // What the request said of itself (the Proposal-Channel header), beside the channel the server saw.
  ['claimed_channel', (r) => r.source?.claimed_channel],
  ['agent_identity', (r) => (r.agent_identity === undefined ? undefined : agentIdentityText(r.agent_identity))],
  ['failed_at', (r) => r.delivery.failed_at],
  ...[...CONTACT_FIELDS, ...OPTIONAL_CONTACT_FIELDS].map((field): Column => [field, (r) => r.contact[field]]),
  ...INTAKE_FIELDS.map((field): Column => [field, (r) => r.intake[field]]),
  ...GUIDANCE_FIELDS.map((field): Column => [field, (r) => r.guidance[field]]),
  ['consent_version', (r) => r.consent.version],
  ['consent_at', (r) => r.consent.at],
  // Absent on requests stored before they were recorded: "not recorded", never an empty cell that reads as none.
  ['consent_method', (r) => r.consent.method ?? NOT_RECORDED],
  ['consent_vouched_by', (r) => r.consent.vouched_by ?? NOT_RECORDED],
  ['consent_confirmed_at', (r) => r.consent.confirmed_at],
  ['consent_digest', (r) => r.consent.digest ?? NOT_RECORDED],
  ['consent_channel', (r) => r.consent.channel ?? NOT_RECORDED],
  ['consent_mcp_protocol', (r) => r.consent.mcp?.protocol_version],
  ['consent_mcp_client', (r) => r.consent.mcp?.client],
];

/** RFC 4180: CRLF between records, every field in double quotes (csvField). */
export function toCsv(records: ProposalRecord[]): string {
  const rows = [
    CSV_COLUMNS.map(([header]) => csvField(header)),
    ...records.map((record) => CSV_COLUMNS.map(([, value]) => csvField(value(record)))),
  ];
  return rows.map((row) => row.join(',')).join('\r\n') + '\r\n';
}

/**
 * One field as OWASP's "CSV Injection" guidance asks: text from a public form, opened in a
 * spreadsheet, must stay text. Every field is quoted (a quote doubled), so no separator splits it into
 * a cell of its own, whichever the reader uses: a `;` locale's Excel (de-DE, fr-FR) or a tab import
 * would otherwise start a cell at `=1+1` in `Acme;=1+1;`. Text starting with = + - @ tab or CR gets
 * a leading apostrophe, shown as text, never evaluated.
 */
export function csvField(value: string | number | undefined): string {
  let text = value === undefined ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** A short table for the terminal, one line per request. */
export function listText(records: ProposalRecord[]): string {
  const count = (state: DeliveryState) => records.filter((record) => record.delivery.state === state).length;
  const failed = count('failed');
  const header =
    `${records.length} request${records.length === 1 ? '' : 's'} (${count('pending')} pending, ${count('received')} received` +
    `${failed > 0 ? `, ${failed} FAILED: the CRM never accepted them, follow up by hand` : ''})`;
  const lines = records.map((r) =>
    [
      r.received_at.padEnd(24),
      (r.delivery.state === 'failed' ? 'FAILED' : r.delivery.state).padEnd(8),
      r.delivery.crm.padEnd(7),
      `tries ${r.delivery.attempts}`.padEnd(8),
      `email ${r.confirmation_email.state}`.padEnd(20),
      `notice ${noticeState(r)}`.padEnd(21),
      `via ${r.source?.channel ?? '-'}`.padEnd(13),
      r.request_id,
      signalsTag(r).padEnd(12),
      ` ${singleLine(r.contact.company)} / ${singleLine(r.contact.name)} <${singleLine(r.contact.email)}>`,
      ...(r.source?.client === undefined ? [] : [` client ${singleLine(r.source.client)}`]),
      ...(r.source?.claimed_channel === undefined ? [] : [` says ${r.source.claimed_channel}`]),
      ...(r.agent_identity === undefined ? [] : [` agent: ${agentIdentityText(r.agent_identity)}`]),
      ` consent: ${singleLine(consentText(r.consent))}`,
    ].join(' '),
  );
  return [header, ...lines].join('\n') + '\n';
}

/** Spam signals in a few characters: `links 3`, `addr 5`, or `-`. */
function signalsTag(record: ProposalRecord): string {
  const s = record.signals;
  if (s === undefined) return '-';
  const parts = [
    s.links > 0 && `links ${s.links}`,
    (s.address_requests_24h ?? 0) > 1 && `addr ${s.address_requests_24h}`,
  ];
  return parts.filter(Boolean).join(',') || '-';
}

/** The sales team's notice in one word: sent when any channel sent it. */
function noticeState(record: ProposalRecord): string {
  const n = record.notification;
  if (n === undefined) return '-';
  return (
    (['sent', 'owed', 'failed', 'in_digest'] as const).find((s) => n.email === s || n.chat === s) ?? 'not_configured'
  );
}
