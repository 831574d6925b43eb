/**
 * Sender text made safe for each place sales read it: no line a sender adds, no text a bidi control
 * turns around or hides, no markup a chat service or mail client would act on.
 */

/** Control and format characters (bidi controls, zero-width ones, the BOM) and line separators. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu;

/** One line (an email header, a terminal row): nothing can end it early or hide text. */
export const singleLine = (value: string): string => value.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();

/** For an email header: one line, and no RFC 2047 encoded word (`=?…?=`), which clients decode after every check here. */
export const headerText = (value: string): string => singleLine(value).replaceAll('=?', '= ?');

/** U+2060 WORD JOINER: invisible, and it breaks the tokens chat services turn into mentions or links. */
const JOINER = '\u2060';

/**
 * For a chat message (Slack, Mattermost `{"text": …}`): `& < >` escaped as Slack requires, so
 * `<!channel>` and `<https://x|label>` stay text; `@name` mentions and `[label](url)` links broken.
 */
export const chatText = (value: string): string =>
  singleLine(value)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/@(?=[\p{L}\p{N}_.-])/gu, `@${JOINER}`)
    .replaceAll('](', `]${JOINER}(`);
