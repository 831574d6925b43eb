/**
 * Email over SMTP (nodemailer): the confirmation, sent once the CRM accepted the request, and the
 * sales team's messages. A transient failure (server down, 4xx) leaves it owed for a later
 * invocation; a refusal (5xx) is final. The confirmation goes to an address nobody has verified,
 * so it carries nothing the sender wrote (no name, free text or URL, in any header or the body):
 * only the partner's words, and the choices picked from the contract's lists by the site's labels.
 */
import type { Transporter } from 'nodemailer';
import type { Partner } from './partner.ts';
import { FIELD_LABELS } from '../../contract/fields.ts';
import { singleLine } from './single-line.ts';
import { logEvent, type LogFields } from './log.ts';
import type { ProposalRecord } from './record.ts';

/** `retry`: not sent, but worth another try later; `failed`: the server refused it for good. */
export type SendResult = 'sent' | 'failed' | 'retry';

/** A plain-text message to the partner's own team. */
export interface Notice {
  to: string[];
  subject: string;
  text: string;
  /** Local part of the Message-ID, one per request and kind, so a resend shows once. */
  messageId: string;
}

export interface Mailer {
  sendConfirmation(record: ProposalRecord, partner: Partner): Promise<SendResult>;
  /** `sent` when the server accepted at least one recipient. */
  sendNotice(notice: Notice): Promise<SendResult>;
}

/** Keeps a dead or slow mail server from holding the function near its time limit. */
const SMTP_TIMEOUT_MS = 5_000;

/** A mailer when SMTP_URL and MAIL_FROM are both set; otherwise null ("not_configured"). */
export function createMailer(env: (name: string) => string | undefined): Mailer | null {
  const url = env('SMTP_URL');
  const from = env('MAIL_FROM');
  if (url === undefined || from === undefined) return null;
  // nodemailer is half the function bundle: loaded on the first email, not at every cold start.
  let transport: Promise<Transporter> | undefined;
  const connect = () =>
    (transport ??= import('nodemailer').then((nodemailer) =>
      // A CommonJS module, so maybe a default export; the object form applies the timeouts (a
      // second argument would be message defaults).
      (nodemailer.default ?? nodemailer).createTransport({
        url,
        connectionTimeout: SMTP_TIMEOUT_MS,
        greetingTimeout: SMTP_TIMEOUT_MS,
        socketTimeout: SMTP_TIMEOUT_MS,
      }),
    ));
  /** `event`: the log event's stem; `accepted` decides from the recipients the server accepted. */
  const send = async (
    mail: { to: string | string[]; replyTo?: string; messageId: string; subject: string; text: string },
    accepted: (recipients: string[]) => boolean,
    event: 'confirmation_email' | 'notify_email',
    fields: LogFields,
  ): Promise<SendResult> => {
    try {
      const info = await (
        await connect()
      ).sendMail({
        from,
        ...mail,
        // One Message-ID per message: should a crash make a retry send it again, mail systems
        // that deduplicate by Message-ID show it once.
        messageId: `<${mail.messageId}@${domainOf(from)}>`,
        // Nothing in this message may make nodemailer read files or fetch URLs.
        disableFileAccess: true,
        disableUrlAccess: true,
      });
      if (accepted(info.accepted ?? [])) return 'sent';
      logEvent(`${event}_failed`, { ...fields, code: 'RECIPIENT_NOT_ACCEPTED' });
      return 'failed';
    } catch (error) {
      const result = isPermanent(error) ? 'failed' : 'retry';
      logEvent(`${event}_${result === 'failed' ? 'failed' : 'deferred'}`, { ...fields, code: errorCode(error) });
      return result;
    }
  };
  return {
    async sendConfirmation(record, partner) {
      const address = singleLine(record.contact.email);
      const mail = {
        // The address alone: a display name would carry the sender's words into a header.
        to: address,
        replyTo: partner.email,
        messageId: record.request_id,
        subject: confirmationSubject(record, partner),
        text: confirmationText(record, partner),
      };
      const accepted = (list: string[]) => list.some((item) => item.toLowerCase() === address.toLowerCase());
      return send(mail, accepted, 'confirmation_email', { request_id: record.request_id });
    },
    async sendNotice(notice) {
      const mail = { ...notice, to: notice.to.map(singleLine), subject: singleLine(notice.subject) };
      return send(mail, (list) => list.length > 0, 'notify_email', {});
    },
  };
}

/** The error's code only: messages can quote server replies that contain the address. */
function errorCode(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return 'UNKNOWN';
}

/** An SMTP 5xx reply refuses the message for good; anything else (no connection, 4xx, timeout) may pass later. */
function isPermanent(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null && 'responseCode' in error ? error.responseCode : undefined;
  return typeof code === 'number' && code >= 500;
}

/** The domain of MAIL_FROM ("Name <a@b.example>" or "a@b.example"), for Message-IDs. */
function domainOf(from: string): string {
  return /@([^\s>]+)/.exec(from)?.[1] ?? 'localhost';
}

/** Fixed text plus the request id; no sender text, so the subject cannot carry an injection. */
function confirmationSubject(record: ProposalRecord, partner: Partner): string {
  return singleLine(`${partner.name}: your proposal request ${record.request_id} is received`);
}

/** The choices picked from the site's lists, as [label, the site's name for the choice]. */
function confirmationChoices(record: ProposalRecord, partner: Partner): Array<[string, string]> {
  const labels = partner.choiceLabels ?? {};
  const picked: Array<[string, string | undefined]> = [
    [FIELD_LABELS.engagement_model, record.intake.engagement_model],
    [FIELD_LABELS.primary_need, record.guidance.primary_need],
  ];
  return picked.flatMap(([label, id]) => {
    const name = id === undefined ? undefined : labels[id];
    return name === undefined ? [] : [[label, name] as [string, string]];
  });
}

function confirmationText(record: ProposalRecord, partner: Partner): string {
  const choices = confirmationChoices(record, partner);
  return [
    'Hello,',
    '',
    `${partner.name}, ${partner.describedAs}, has received a proposal request sent with this email address.`,
    `It is stored with ${partner.name} under this reference:`,
    '',
    `Request id: ${record.request_id}`,
    `Received at: ${record.received_at}`,
    ...(choices.length === 0 ? [] : ['', 'You chose', '---------', ...choices.map(([l, v]) => `${l}: ${v}`)]),
    '',
    'What happens next',
    '-----------------',
    `The ${partner.name} team reviews the request and replies from ${partner.email} with questions`,
    'or a suggestion for a first conversation. Any guidance about cloud-provider programs is',
    'non-binding: the cloud provider decides eligibility and approval.',
    '',
    'Please do not reply with credentials, passwords, access keys, private architecture diagrams,',
    'confidential financial information, regulated data or other secrets.',
    '',
    'Not you?',
    '--------',
    `If you did not send this request, write to ${partner.email} with the request id and`,
    'everything stored for it is deleted. This email repeats nothing of what was sent.',
    ...(partner.privacyUrl === undefined ? [] : [`How ${partner.name} handles the data: ${partner.privacyUrl}`]),
    '',
    `This email was sent because a proposal request was submitted at ${partner.proposalUrl}`,
    'with this address and agreement to be contacted about it.',
    '',
  ].join('\n');
}
