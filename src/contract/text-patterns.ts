/**
 * The text fields' JSON Schema patterns, written so every engine a client may use reads them alike:
 * JavaScript with and without the u flag, Python's re and RE2 (tests/built/portable-patterns.test.ts).
 * So: no `\p{…}` (Python, and JavaScript without u, cannot read it), no lookahead (RE2 has none), no
 * `\s` or `\d` (each engine has its own set), no `\u` escape (RE2 has none): ASCII controls as
 * `\xHH`, every other character in a class as itself.
 *
 * A value must hold a visible character and no control or format character. Format characters
 * are those of the Basic Multilingual Plane (Unicode category Cf): an astral one cannot sit in a
 * class that JavaScript without u reads as UTF-16 code units, and the astral ones are emoji tag
 * characters (the flags of England or Scotland), musical and shorthand formatting.
 */

/** Code point ranges, inclusive, as a class body of the characters themselves. */
const chars = (ranges: [number, number?][]): string =>
  ranges
    .map(([a, b]) =>
      b === undefined ? String.fromCodePoint(a) : `${String.fromCodePoint(a)}-${String.fromCodePoint(b)}`,
    )
    .join('');

/** C0 and C1 controls (Cc), and the same without tab, line feed and carriage return. */
const CONTROLS = '\\x00-\\x1f\\x7f-\\x9f';
const CONTROLS_BUT_LINE_BREAKS = '\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f-\\x9f';

/** Unicode 17's Cf in the BMP (a test compares it with JavaScript's \p{Cf}). */
export const FORMAT_CHARS = chars([
  [0xad],
  [0x600, 0x605],
  [0x61c],
  [0x6dd],
  [0x70f],
  [0x890, 0x891],
  [0x8e2],
  [0x180e],
  [0x200b, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x2064],
  [0x2066, 0x206f],
  [0xfeff],
  [0xfff9, 0xfffb],
]);

/** Space characters that are not controls or format characters: they alone do not make text visible. */
export const SPACE_CHARS = chars([
  [0x20],
  [0xa0],
  [0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f],
  [0x205f],
  [0x3000],
]);

/** One line (names, short answers): spaces, then a visible character, then anything but controls and format characters. */
export const VISIBLE_LINE_PATTERN = `^[${SPACE_CHARS}]*[^${SPACE_CHARS}${CONTROLS}${FORMAT_CHARS}][^${CONTROLS}${FORMAT_CHARS}]*$`;

/** Free text: as a line, and tabs and line breaks are allowed. */
export const VISIBLE_TEXT_PATTERN = `^[${SPACE_CHARS}\\t\\n\\r]*[^${SPACE_CHARS}${CONTROLS}${FORMAT_CHARS}][^${CONTROLS_BUT_LINE_BREAKS}${FORMAT_CHARS}]*$`;
