/**
 * Email over SMTP (nodemailer): the confirmation and the sales team's messages. The confirmation goes
 * to an address nobody has verified, so it carries nothing the sender wrote, in any header or the body:
 * only the partner's words and the site's names for the choices picked from the contract's lists.
 */
import type { Transporter } from 'nodemailer';
import type { Partner } from './partner.ts';
import { FIELD_LABELS } from '../../contract/fields.ts';
import { headerText, singleLine } from './single-line.ts';
import { logEvent, type LogFields } from './log.ts';
import type { ProposalRecord } from './record.ts';
import { consentSecretFromEnv, linkToken, linkUrl, type LinkAnswer } from './consent-links.ts';

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

/** Keeps a dead or slow mail server from holding the function near its time limit (each of nodemailer's timers). */
const SMTP_TIMEOUT_MS = 5_000;
/**
 * The longest one send may take, raced against a timer: nodemailer's socketTimeout is an idle timer, so
 * a server that answers slowly could hold one send far longer (an effect of the lease rule, store/limits.ts).
 */
export const MAIL_EFFECT_MS = 10_000;

/** `work` or `late` once `ms` have passed, whichever comes first. */
export async function within<T, L>(work: Promise<T>, ms: number, late: L): Promise<T | L> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<L>((resolve) => {
    timer = setTimeout(() => resolve(late), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A mailer when SMTP_URL and MAIL_FROM are both set; otherwise null ("not_configured"). */
export function createMailer(env: (name: string) => string | undefined) {
  const url = env('SMTP_URL');
  const from = env('MAIL_FROM');
  const { secret } = consentSecretFromEnv(env);
  if (url === undefined || from === undefined) return null;
  // For Message-IDs: MAIL_FROM is "Name <a@b.example>" or "a@b.example".
  const domain = /@([^\s>]+)/.exec(from)?.[1] ?? 'localhost';
  // nodemailer is half the function bundle: loaded on the first email, not at every cold start.
  let transport: Promise<Transporter> | undefined;
  const connect = () =>
    (transport ??= import('nodemailer').then((nodemailer) =>
      // A CommonJS module (maybe a default export); timeouts in the object form, not a second argument.
      (nodemailer.default ?? nodemailer).createTransport({
        url,
        connectionTimeout: SMTP_TIMEOUT_MS,
        greetingTimeout: SMTP_TIMEOUT_MS,
        socketTimeout: SMTP_TIMEOUT_MS,
      }),
    ));
  /** `event`: the log event's stem. One recipient of a confirmation, so "some accepted" is "its address accepted". */
  const send = async (
    mail: { to: string | string[]; replyTo?: string; messageId: string; subject: string; text: string },
    event: 'confirmation_email' | 'notify_email',
    fields: LogFields,
  ): Promise<SendResult> => {
    try {
      const sending = connect().then((transporter) =>
        transporter.sendMail({
          from,
          ...mail,
          // Should a crash make a retry send it again, mail systems that dedupe by Message-ID show it once.
          messageId: `<${mail.messageId}@${domain}>`,
          // Nothing in this message may make nodemailer read files or fetch URLs.
          disableFileAccess: true,
          disableUrlAccess: true,
        }),
      );
      const info = await within(sending, MAIL_EFFECT_MS, 'timeout' as const);
      if (info === 'timeout') {
        // A late answer is not waited for: the send counts as not done, and its Message-ID keeps a repeat to one.
        sending.catch(() => undefined);
        logEvent(`${event}_deferred`, { ...fields, code: 'SEND_TIMEOUT' });
        return 'retry';
      }
      if ((info.accepted ?? []).length > 0) return 'sent';
      logEvent(`${event}_failed`, { ...fields, code: 'RECIPIENT_NOT_ACCEPTED' });
      return 'failed';
    } catch (error) {
      const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
      // nodemailer's failures carry a code; anything else is a programming error and surfaces.
      if (code === undefined && responseCode === undefined) throw error;
      // An SMTP 5xx refuses the message for good; anything else (no connection, 4xx, timeout) may pass later.
      const permanent = typeof responseCode === 'number' && responseCode >= 500;
      // The code only: messages can quote server replies that contain the address.
      logEvent(`${event}_${permanent ? 'failed' : 'deferred'}`, {
        ...fields,
        code: typeof code === 'string' ? code : 'UNKNOWN',
      });
      return permanent ? 'failed' : 'retry';
    }
  };
  return {
    async sendConfirmation(record: ProposalRecord, partner: Partner) {
      const mail = {
        // The address alone: a display name would carry the sender's words into a header.
        to: singleLine(record.contact.email),
        replyTo: partner.email,
        messageId: record.request_id,
        // Fixed text plus the request id: no sender text, so the subject cannot carry an injection.
        subject: singleLine(`${partner.name}: your proposal request ${record.request_id} is received`),
        text: confirmationText(record, partner, secret),
      };
      return send(mail, 'confirmation_email', { request_id: record.request_id });
    },
    /** `sent` when the server accepted at least one recipient. */
    async sendNotice(notice: Notice) {
      const mail = { ...notice, to: notice.to.map(singleLine), subject: headerText(notice.subject) };
      return send(mail, 'notify_email', {});
    },
  };
}

/** The two answers as links to the partner's page; none without the secret that keys them. */
function answerLinks(record: ProposalRecord, partner: Partner, secret: string | undefined): string[] {
  if (secret === undefined) return [];
  const link = (answer: LinkAnswer) =>
    linkUrl(partner.proposalUrl, record.request_id, answer, linkToken(secret, record.request_id, answer));
  return [
    'Was this you?',
    '-------------',
    'Yes, this was me (confirms your consent; the link works for 24 hours):',
    link('confirm'),
    '',
    'Not me (deletes the request; the link works for 30 days):',
    link('deny'),
    '',
    'Each link opens a page with one button; nothing changes until you press it.',
    '',
  ];
}

function confirmationText(record: ProposalRecord, partner: Partner, secret?: string): string {
  const picked = [
    ['engagement_model', record.intake.engagement_model],
    ['primary_need', record.guidance.primary_need],
  ] as const;
  const choices = picked.flatMap(([field, id]) => {
    const name = id === undefined ? undefined : partner.choiceLabels?.[id];
    return name === undefined ? [] : [`${FIELD_LABELS[field]}: ${name}`];
  });
  return [
    'Hello,',
    '',
    `${partner.name}, ${partner.describedAs}, has received a proposal request sent with this email address.`,
    `It is stored with ${partner.name} under this reference:`,
    '',
    `Request id: ${record.request_id}`,
    `Received at: ${record.received_at}`,
    ...(choices.length === 0 ? [] : ['', 'You chose', '---------', ...choices]),
    '',
    ...answerLinks(record, partner, secret),
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
    `If you did not send this request, use the "Not me" link above or write to ${partner.email} with the request id and`,
    'everything stored for it is deleted. This email repeats nothing of what was sent.',
    ...(partner.privacyUrl === undefined ? [] : [`How ${partner.name} handles the data: ${partner.privacyUrl}`]),
    '',
    `This email was sent because a proposal request was submitted at ${partner.proposalUrl}`,
    'with this address and agreement to be contacted about it.',
    '',
  ].join('\n');
}
