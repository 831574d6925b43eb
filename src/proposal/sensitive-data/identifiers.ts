/**
 * Payment card numbers and national ID numbers. secretlint has no rules for either, so these are
 * ours. Each one needs a checksum or strict structure on top of the digit shape, so that budgets,
 * phone numbers, order ids and dates pass.
 */
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { allMatches, type Hit } from './kinds.ts';

// ---------------------------------------------------------------------------------------------
// Payment cards: 13-19 digits, grouped as printed on cards, Luhn-valid, with a known issuer prefix.

/** A run of digit groups separated by single spaces or dashes; not part of a decimal or a phone. */
const DIGIT_RUN = /(?<![\d.,/:+])\d{1,19}(?:[ -]\d{1,19}){0,18}(?!\d|[.,]\d)/g;

/** Luhn (mod 10) check over a string of digits. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Issuer identification: a number prefix range (by leading digits) and the lengths it issues. */
const ISSUERS: readonly { from: number; to: number; digits: number; lengths: readonly number[] }[] = [
  { from: 4, to: 4, digits: 1, lengths: [13, 16, 19] }, // Visa
  { from: 51, to: 55, digits: 2, lengths: [16] }, // Mastercard
  { from: 2221, to: 2720, digits: 4, lengths: [16] }, // Mastercard 2-series
  { from: 34, to: 34, digits: 2, lengths: [15] }, // American Express
  { from: 37, to: 37, digits: 2, lengths: [15] }, // American Express
  { from: 6011, to: 6011, digits: 4, lengths: [16, 17, 18, 19] }, // Discover
  { from: 644, to: 649, digits: 3, lengths: [16, 17, 18, 19] }, // Discover
  { from: 65, to: 65, digits: 2, lengths: [16, 17, 18, 19] }, // Discover
  { from: 300, to: 305, digits: 3, lengths: [14, 15, 16, 17, 18, 19] }, // Diners Club
  { from: 36, to: 36, digits: 2, lengths: [14, 15, 16, 17, 18, 19] }, // Diners Club
  { from: 38, to: 39, digits: 2, lengths: [14, 15, 16, 17, 18, 19] }, // Diners Club
  { from: 3528, to: 3589, digits: 4, lengths: [16, 17, 18, 19] }, // JCB
  { from: 62, to: 62, digits: 2, lengths: [16, 17, 18, 19] }, // UnionPay
];

/** True when the digits start with a known issuer prefix and have a length that issuer uses. */
export function hasIssuerPrefix(digits: string): boolean {
  return ISSUERS.some(({ from, to, digits: width, lengths }) => {
    const prefix = Number(digits.slice(0, width));
    return prefix >= from && prefix <= to && lengths.includes(digits.length);
  });
}

/**
 * True when the groups are laid out as card numbers are written: one unbroken run, fours with a
 * shorter tail (4-4-4-4, 4-4-4-4-3), or the Amex / Diners 4-6-5 and 4-6-4.
 */
function cardLayout(lengths: readonly number[]): boolean {
  if (lengths.length === 1) return true;
  const [first, second, third] = lengths;
  if (lengths.length === 3 && first === 4 && second === 6 && (third === 5 || third === 4)) return true;
  const last = lengths[lengths.length - 1] ?? 0;
  return lengths.slice(0, -1).every((length) => length === 4) && last >= 1 && last <= 4;
}

export function paymentCardHits(text: string, hits: Hit[]): void {
  for (const run of allMatches(DIGIT_RUN, text)) {
    // Split the run into groups, keeping where each starts and which separator preceded it.
    const groups: { start: number; digits: string; separator: string }[] = [];
    const groupPattern = /([ -]?)(\d+)/g;
    for (const group of allMatches(groupPattern, run[0])) {
      groups.push({
        start: run.index + group.index + (group[1] ?? '').length,
        digits: group[2] ?? '',
        separator: group[1] ?? '',
      });
    }
    // Try every window of whole groups that could be a card: 13-19 digits, one kind of separator.
    for (let i = 0; i < groups.length; i += 1) {
      let digits = '';
      const lengths: number[] = [];
      let separator: string | undefined;
      for (let j = i; j < groups.length; j += 1) {
        const group = groups[j];
        if (group === undefined) break;
        if (j > i) {
          separator ??= group.separator;
          if (group.separator !== separator) break;
        }
        digits += group.digits;
        lengths.push(group.digits.length);
        if (digits.length > 19) break;
        if (digits.length < 13 || !cardLayout(lengths) || !hasIssuerPrefix(digits) || !luhnValid(digits)) continue;
        const first = groups[i];
        if (first === undefined) break;
        hits.push({ kind: 'payment-card', start: first.start, end: group.start + group.digits.length });
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// US Social Security numbers

/** NNN-NN-NNNN, the way SSNs are written; not inside a longer dashed number. */
const SSN_DASHED = /(?<![\d-])(\d{3})-(\d{2})-(\d{4})(?![\d-])/g;
/** Nine digits, bare or spaced, right after the words SSN / social security number. */
const SSN_NAMED =
  /\b(?:ssn|social security(?: number| no\.?| #)?)\b[^\d\n]{0,20}(\d{3})[ -]?(\d{2})[ -]?(\d{4})(?!\d)/gi;

/** SSA rules: area not 000, 666 or 900-999; group not 00; serial not 0000. */
export function ssnValid(area: string, group: string, serial: string): boolean {
  return area !== '000' && area !== '666' && !area.startsWith('9') && group !== '00' && serial !== '0000';
}

function ssnHits(text: string, hits: Hit[]): void {
  for (const pattern of [SSN_DASHED, SSN_NAMED]) {
    for (const match of allMatches(pattern, text)) {
      if (!ssnValid(match[1] ?? '', match[2] ?? '', match[3] ?? '')) continue;
      hits.push({ kind: 'national-id', start: match.index, end: match.index + match[0].length });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// UK National Insurance numbers: two prefix letters, six digits, suffix A-D (QQ 12 34 56 C).

const NINO = /(?<![\p{L}\p{N}])([A-Za-z]{2}) ?(\d{2}) ?(\d{2}) ?(\d{2}) ?([A-Da-d])(?![\p{L}\p{N}])/gu;
/** Prefixes HMRC never allocates. */
const NINO_INVALID_PREFIXES = new Set(['BG', 'GB', 'KN', 'NK', 'NT', 'TN', 'ZZ']);

/** HMRC rules: first letter not D, F, I, Q, U, V; second not D, F, I, O, Q, U, V; no invalid pair. */
export function ninoPrefixValid(prefix: string): boolean {
  return /^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]$/.test(prefix) && !NINO_INVALID_PREFIXES.has(prefix);
}

function ninoHits(text: string, hits: Hit[]): void {
  for (const match of allMatches(NINO, text)) {
    const prefix = match[1] ?? '';
    const suffix = match[5] ?? '';
    const upper = prefix === prefix.toUpperCase() && suffix === suffix.toUpperCase();
    // Lower case only in the compact form, so prose like "he 12 34 56 a" is not read as one.
    if (!upper && match[0].includes(' ')) continue;
    if (!ninoPrefixValid(prefix.toUpperCase())) continue;
    hits.push({ kind: 'national-id', start: match.index, end: match.index + match[0].length });
  }
}

// ---------------------------------------------------------------------------------------------
// Spanish DNI / NIE: eight digits (NIE: X, Y or Z and seven digits) and a mod-23 check letter.
// Letters and digits of any script bound these, so "12345678 días" is not read as one.

const DNI = /(?<![\p{L}\p{N}])(\d{8})[ -]?([A-Za-z])(?![\p{L}\p{N}])/gu;
const NIE = /(?<![\p{L}\p{N}])([XYZxyz])[ -]?(\d{7})[ -]?([A-Za-z])(?![\p{L}\p{N}])/gu;
const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** True when `letter` is the check letter of the (NIE-prefix-substituted) eight-digit number. */
export function dniLetterValid(number: string, letter: string): boolean {
  return DNI_LETTERS[Number(number) % 23] === letter.toUpperCase();
}

function spanishIdHits(text: string, hits: Hit[]): void {
  for (const match of allMatches(DNI, text)) {
    if (!dniLetterValid(match[1] ?? '', match[2] ?? '')) continue;
    hits.push({ kind: 'national-id', start: match.index, end: match.index + match[0].length });
  }
  for (const match of allMatches(NIE, text)) {
    const lead = String('XYZ'.indexOf((match[1] ?? '').toUpperCase()));
    if (!dniLetterValid(lead + (match[2] ?? ''), match[3] ?? '')) continue;
    hits.push({ kind: 'national-id', start: match.index, end: match.index + match[0].length });
  }
}

/** Every payment card and national ID number in one text. */
export function identifierHits(text: string): Hit[] {
  const hits: Hit[] = [];
  // All of these need digits; most intake answers have few, and many have none.
  if (!/\d/.test(text)) return hits;
  paymentCardHits(text, hits);
  ssnHits(text, hits);
  ninoHits(text, hits);
  spanishIdHits(text, hits);
  ibanHits(text, hits);
  namedIdHits(text, hits);
  return hits;
}

// ---------------------------------------------------------------------------------------------
// Bank accounts (IBAN) and national identifiers named in the text

/** Two letters, two check digits, then 11-30 letters and digits, optionally grouped by spaces. */
const IBAN_CANDIDATE = /(?<![\p{L}\p{N}])([A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){11,30})(?![\p{L}\p{N}])/gu;

/** IBANs whose country format and mod-97 check digits hold (ibantools, a maintained validator). */
export function ibanHits(text: string, hits: Hit[]): void {
  for (const match of allMatches(IBAN_CANDIDATE, text)) {
    // A grouped IBAN may run into a following word ("... 0130 00 EUR"): drop trailing groups.
    for (let candidate = match[1] ?? ''; candidate.length >= 15; candidate = candidate.replace(/ ?[A-Z0-9]+$/, '')) {
      if (isValidIBAN(electronicFormatIBAN(candidate) ?? '')) {
        hits.push({ kind: 'bank-account', start: match.index, end: match.index + candidate.length });
        break;
      }
      if (!candidate.includes(' ')) break;
    }
  }
}

/** Checksums of identifiers that are only reported when their name stands right before them. */
const luhn = (digits: string) => luhnValid(digits);
/** Dutch BSN: the "elfproef", weights 9..2 and -1. */
const elfproef = (digits: string) =>
  [...digits].reduce((sum, d, i) => sum + Number(d) * (i === 8 ? -1 : 9 - i), 0) % 11 === 0;
/** Indian Aadhaar: Verhoeff check digit. */
const VERHOEFF_D = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VERHOEFF_P = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];
const verhoeff = (digits: string) =>
  [...digits].reverse().reduce((c, d, i) => VERHOEFF_D[c]![VERHOEFF_P[i % 8]![Number(d)]!]!, 0) === 0 &&
  !/^[01]/.test(digits);

const NAMED_IDS: readonly { name: RegExp; digits: number; valid: (digits: string) => boolean }[] = [
  // Canadian Social Insurance Number
  { name: /\b(?:SIN|social insurance(?: number| no\.?)?)\b/i, digits: 9, valid: luhn },
  // Dutch burgerservicenummer
  { name: /\b(?:BSN|burgerservicenummer)\b/i, digits: 9, valid: elfproef },
  // Indian Aadhaar
  { name: /\bAadhaar(?: number| no\.?)?\b/i, digits: 12, valid: verhoeff },
];

/** A named identifier: its name, up to 20 characters of filler, then its digits (spaced or dashed). */
export function namedIdHits(text: string, hits: Hit[]): void {
  for (const id of NAMED_IDS) {
    const pattern = new RegExp(`${id.name.source}[^\\d\\n]{0,20}((?:\\d[ -]?){${id.digits - 1}}\\d)(?!\\d)`, 'gi');
    for (const match of allMatches(pattern, text)) {
      const digits = (match[1] ?? '').replace(/[ -]/g, '');
      if (digits.length === id.digits && id.valid(digits))
        hits.push({ kind: 'national-id', start: match.index, end: match.index + match[0].length });
    }
  }
}
