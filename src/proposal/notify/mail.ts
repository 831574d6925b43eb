/** Email over SMTP (nodemailer, loaded with the first message): the confirmation and the sales team's messages. */
import type { Transporter } from 'nodemailer';
import { logEvent, type LogFields } from '../log.ts';
import { TIMED_OUT, within } from '../store/blobs.ts';
import { headerText, singleLine } from './text.ts';

/** `retry`: not sent, worth another try; `failed`: refused for good. */
export type SendResult = 'sent' | 'failed' | 'retry';

/** `messageId`: the Message-ID's local part, one per message, so a repeat after a fault shows once. */
export type Mail = {
  to: string | string[];
  replyTo?: string;
  subject: string;
  text: string;
  html?: string;
  messageId: string;
};

/** nodemailer's own timers are idle timers; one send is raced against this too (the claim checks it fits). */
export const MAIL_EFFECT_MS = 10_000;
const SMTP_TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 5_000 };

export type Mailer = { send(mail: Mail, fields: LogFields): Promise<SendResult> };

export function createMailer(settings: { url: string; from: string } | undefined): Mailer | null {
  if (settings === undefined) return null;
  const { url, from } = settings;
  const domain = /@([^\s>]+)/.exec(from)?.[1] ?? 'localhost';
  let transport: Promise<Transporter> | undefined;
  const connect = () =>
    (transport ??= import('nodemailer').then((nodemailer) =>
      (nodemailer.default ?? nodemailer).createTransport({ url, ...SMTP_TIMEOUTS }),
    ));
  return {
    async send(mail, fields) {
      try {
        const sending = connect().then((transporter) =>
          transporter.sendMail({
            from,
            ...mail,
            to: Array.isArray(mail.to) ? mail.to.map(singleLine) : singleLine(mail.to),
            ...(mail.replyTo !== undefined && { replyTo: singleLine(mail.replyTo) }),
            subject: headerText(mail.subject),
            messageId: `<${mail.messageId}@${domain}>`,
            // Nothing in a message may make nodemailer read files or fetch URLs.
            disableFileAccess: true,
            disableUrlAccess: true,
          }),
        );
        const info = await within(sending, MAIL_EFFECT_MS);
        if (info === TIMED_OUT) {
          logEvent('mail_deferred', { ...fields, code: 'SEND_TIMEOUT' });
          return 'retry';
        }
        if ((info.accepted ?? []).length > 0) return 'sent';
        logEvent('mail_failed', { ...fields, code: 'RECIPIENT_NOT_ACCEPTED' });
        return 'failed';
      } catch (error) {
        const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
        // nodemailer's failures carry a code; anything else is a bug and surfaces.
        if (code === undefined && responseCode === undefined) throw error;
        // An SMTP 5xx refuses for good; no connection, a 4xx or a timeout may pass later. The code only: messages quote addresses.
        const permanent = typeof responseCode === 'number' && responseCode >= 500;
        logEvent(permanent ? 'mail_failed' : 'mail_deferred', {
          ...fields,
          code: typeof code === 'string' ? code : 'UNKNOWN',
        });
        return permanent ? 'failed' : 'retry';
      }
    },
  };
}
