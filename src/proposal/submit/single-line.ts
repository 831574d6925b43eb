/**
 * Sender text made safe for each place the sales team reads it. The sales team sees what was sent
 * and nothing more: no line a sender adds, no text a bidi control turns around or hides, no markup
 * that a chat service or a mail client would act on.
 */

/**
 * Control and format characters (Cc, Cf: bidi overrides and isolates, zero-width characters, the
 * BOM) and line or paragraph separators: none of them is needed to read a name, and each can end a
 * line early, hide text or reverse what follows it.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu;

/** Sender text safe for one line (an email header, a terminal row): nothing can end the line early or hide text. */
export function singleLine(value: string): string {
  return value.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * Sender text for an email header (the sales notice's Subject): one line, and no RFC 2047 encoded
 * word (`=?charset?q?…?=`), which mail clients decode into whatever it holds (a bidi override, a
 * line break) after every check here. Breaking its opening `=?` with a space keeps it readable as
 * the text that was sent; nodemailer encodes non-ASCII text itself, and a client decodes that once.
 */
export function headerText(value: string): string {
  return singleLine(value).replaceAll('=?', '= ?');
}

/** U+2060 WORD JOINER: invisible, and it breaks the tokens chat services turn into mentions or links. */
const JOINER = '\u2060';

/**
 * Sender text for a chat message (Slack and Mattermost incoming webhooks, `{"text": ...}`), one line:
 * - `&`, `<` and `>` escaped as Slack requires (api.slack.com/reference/surfaces/formatting#escaping),
 *   so `<!channel>`, `<@U123>` and `<https://x|label>` stay text; Mattermost's markdown shows the
 *   entities as the characters;
 * - `@channel`, `@here`, `@all`, `@everyone` and `@name` (Mattermost mentions in plain text) broken
 *   after the `@`;
 * - a markdown link or image `[label](url)` broken between `]` and `(`, so no label hides its URL
 *   (a bare URL still links, and shows itself).
 * The joiner is this function's own; singleLine removed every format character the sender sent.
 */
export function chatText(value: string): string {
  return singleLine(value)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/@(?=[\p{L}\p{N}_.-])/gu, `@${JOINER}`)
    .replaceAll('](', `]${JOINER}(`);
}
