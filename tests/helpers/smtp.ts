/** A real SMTP server on 127.0.0.1 for tests: collects messages, can refuse or be stopped. */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent over the wire (headers + body). */
  raw: string;
}

export interface TestSmtp {
  url: string;
  messages: ReceivedMail[];
  /** When true, every recipient is refused with 550. */
  rejectRecipients(reject: boolean): void;
  /**
   * Holds each 250 reply to DATA this long. A message counts as received only once that reply
   * went out on a live connection, as with a real mail server: a client killed before the reply
   * has not sent it.
   */
  delayAcknowledgement(ms: number): void;
  /** DATA transfers begun and not yet acknowledged. */
  inFlight(): number;
  stop(): Promise<void>;
}

/** `port`: where to listen (a test that starts the server late, on the address a configuration already names); any free one by default. */
export async function startSmtp({ port: wanted = 0 }: { port?: number } = {}): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  let reject = false;
  let ackDelayMs = 0;
  let inFlight = 0;
  const server = new SMTPServer({
    authOptional: true,
    // Plain SMTP on loopback: no certificate to trust in tests.
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (reject) {
        const error: Error & { responseCode?: number } = new Error('Mailbox unavailable');
        error.responseCode = 550;
        callback(error);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      inFlight++;
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
        const mail = {
          from,
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        const acknowledge = () => {
          inFlight--;
          if (ackDelayMs > 0 && (session as { closed?: boolean }).closed === true) return;
          messages.push(mail);
          callback();
        };
        if (ackDelayMs > 0) setTimeout(acknowledge, ackDelayMs);
        else acknowledge();
      });
    },
    onClose(session) {
      (session as { closed?: boolean }).closed = true;
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(wanted, '127.0.0.1', () => resolve());
  });
  // A client killed mid-transaction resets its connection: that is the client's failure, not the server's.
  server.on('error', () => undefined);
  const { port } = server.server.address() as AddressInfo;
  let stopped = false;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    rejectRecipients: (value) => {
      reject = value;
    },
    delayAcknowledgement: (ms) => {
      ackDelayMs = ms;
    },
    inFlight: () => inFlight,
    stop: () =>
      stopped
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            stopped = true;
            server.close(() => resolve());
          }),
  };
}

/** The messages with `address` among their recipients (e.g. the prospect's, not the sales team's). */
export function mailsTo(messages: ReceivedMail[], address: string): ReceivedMail[] {
  return messages.filter((m) => m.to.some((to) => to.toLowerCase() === address.toLowerCase()));
}

/** Header block of a raw message, unfolded, as [name, value] pairs. */
export function headerLines(raw: string): Array<[string, string]> {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  return head
    .replace(/\r?\n[ \t]+/g, ' ')
    .split(/\r?\n/)
    .map((line): [string, string] => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    });
}

/** A message as a mail client shows it: the headers, then each text part decoded (base64 or quoted-printable). */
export function readableMail(raw: string): string {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const boundary = /content-type:\s*multipart\/[^\r\n]*(?:\r?\n[ \t][^\r\n]*)*?boundary="?([^";\r\n]+)"?/i.exec(
    head,
  )?.[1];
  if (boundary !== undefined) {
    const parts = body.split(`--${boundary}`).slice(1);
    return [head, ...parts.filter((p) => !p.startsWith('--')).map((p) => readableMail(p.replace(/^\r?\n/, '')))].join(
      '\n\n',
    );
  }
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
  const text =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
      : encoding === 'quoted-printable'
        ? Buffer.from(
            body
              .replace(/=\r?\n/g, '')
              .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
            'latin1',
          ).toString('utf8')
        : body;
  return `${head}\n\n${text}`;
}
