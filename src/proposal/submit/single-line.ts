/** Sender text safe for one line (an email header, a terminal row): nothing can end the line early or hide text. */
export function singleLine(value: string): string {
  return value
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
