/** Company names that would act in a chat message or a mail client if passed on as they are. */
import { expect } from 'vitest';
import { headerLines } from './smtp.ts';
import { chatText, headerText } from '../../src/proposal/notify/text.ts';

export const HOSTILE_COMPANIES = [
  // Slack: pings everyone in the channel.
  '<!channel> Acme',
  // Slack: a link whose label hides where it goes.
  '<https://evil.example|Open the CRM record>',
  // Mattermost (markdown): the same disguise.
  '[Open the CRM record](https://evil.example)',
  // Mattermost: mentions in plain text.
  '@here Acme & Sons',
  // Encoded words a mail client would decode: a right-to-left override, a line with a new header.
  '=?utf-8?q?=E2=80=AEevil?= Ltd',
  '=?utf-8?b?QWNtZQ0KQmNjOiB2aWN0aW1AZXZpbC5leGFtcGxl?=',
] as const;

/** The override itself: the API refuses it at input (422), so only the in-process test sends it on. */
export const RAW_OVERRIDE = 'Acme \u202Egnp.exe';

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** The Subject as a mail client shows it: RFC 2047 encoded words decoded once (UTF-8, Q or B). */
export function decodedSubject(raw: string): string {
  const value = headerLines(raw).find(([name]) => name === 'subject')?.[1] ?? '';
  const word = /=\?([^?\s]+)\?([qQbB])\?([^?\s]*)\?=/g;
  // Whitespace between two adjacent encoded words is not part of the text (RFC 2047 section 6.2).
  const joined = value.replace(/(\?=)\s+(?==\?)/g, '$1');
  return joined.replace(word, (_m, _charset: string, encoding: string, text: string) =>
    encoding.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text
            .replace(/_/g, ' ')
            .replace(/=([0-9A-F]{2})/gi, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

/** What a mail client shows holds the sender's text, on one line, with nothing left to decode or hide. */
export function expectInertSubject(subject: string, company: string): void {
  expect(subject).toContain(headerText(company));
  expect(subject).not.toContain('=?');
  expect(subject).not.toMatch(INVISIBLE);
  expect(subject).not.toMatch(/bcc:/i);
}

/** The chat message holds the sender's text with no markup, mention or disguised link left live. */
export function expectInertChat(text: string, company: string): void {
  expect(text).toContain(chatText(company));
  expect(text).not.toMatch(/[<>]/);
  expect(text).not.toContain('](');
  expect(text).not.toMatch(/@[\p{L}\p{N}_]/u);
}
