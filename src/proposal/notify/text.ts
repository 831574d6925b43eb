/** Sender text made safe where sales read it: no added line, nothing hidden or turned around, no live markup. */

/** Control and format characters (bidi controls, zero-width ones, the BOM) and line separators. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu;

/** One line (an email header, a terminal row): nothing can end it early or hide text. */
export const singleLine = (value: string): string => value.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();

/** For an email header: one line, and no RFC 2047 encoded word (`=?…?=`), which clients decode after every check here. */
export const headerText = (value: string): string => singleLine(value).replaceAll('=?', '= ?');

/**
 * For chat: `& < >` escaped as Slack requires (`<!channel>` stays text); `@name` mentions and `[label](url)`
 * links broken by an invisible U+2060 WORD JOINER.
 */
export const chatText = (value: string): string =>
  singleLine(value)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replace(/@(?=[\p{L}\p{N}_.-])/gu, '@\u2060')
    .replaceAll('](', ']\u2060(');
