/**
 * Sender text made safe for one line (an email header, a terminal row): CR, LF, other control
 * characters and Unicode line/paragraph separators become spaces, so nothing can end the line
 * early or hide text. A name keeps its spaces.
 */
export function singleLine(value: string): string {
  return value
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
