/**
 * Payment card, bank account and national ID numbers (secretlint has no rules for them), each with
 * a checksum or strict structure, so budgets, phones, order ids and dates pass.
 */
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { allMatches, type Hit, type Rule, ruleHits } from './kinds.ts';

const DOUBLED = [0, 2, 4, 6, 8, 1, 3, 5, 7, 9];

/** Luhn (mod 10) check over a string of digits: every second digit from the right doubled. */
export const luhnValid = (digits: string): boolean =>
  [...digits].reverse().reduce((sum, d, i) => sum + (i % 2 ? (DOUBLED[+d] ?? 0) : +d), 0) % 10 === 0;

/** Issuer identification: the number prefixes of each network and the lengths it issues. */
const ISSUERS: readonly (readonly [RegExp, readonly number[]])[] = [
  [/^4/, [13, 16, 19]], // Visa
  [/^(?:5[1-5]|222[1-9]|22[3-9]|2[3-6]|27[01]|2720)/, [16]], // Mastercard, 2-series 2221-2720
  [/^3[47]/, [15]], // American Express
  [/^(?:6011|64[4-9]|65)/, [16, 17, 18, 19]], // Discover
  [/^(?:30[0-5]|3[689])/, [14, 15, 16, 17, 18, 19]], // Diners Club
  [/^35(?:2[89]|[3-8])/, [16, 17, 18, 19]], // JCB 3528-3589
  [/^62/, [16, 17, 18, 19]], // UnionPay
];

const hasIssuerPrefix = (digits: string) =>
  ISSUERS.some(([prefix, lengths]) => prefix.test(digits) && lengths.includes(digits.length));

/** As cards are written: one run, fours with a shorter tail (4-4-4-4-3), or Amex / Diners 4-6-5 and 4-6-4. */
const cardLayout = (lengths: readonly number[]): boolean => /^\d+$|^(?:4,)*[1-4]$|^4,6,[45]$/.test(lengths.join(','));

/**
 * A run of digit groups separated by single spaces, dashes, dots or slashes, each group a whole
 * token of digits: never digits inside a word or a hex or base32 id (the `4408` of a UUID's
 * `25fe4408-0548-4673-9c2d`, a ULID), nor a run that a dash, dot or slash joins to a word (`ORD-`,
 * `v1.2`, `-9c2d`: parts of one identifier), nor one after `:` (a time, an ARN's account) or in a
 * decimal. A run that starts with `+` is a phone number. Dates, versions and amounts it takes in
 * fail the card's layout, issuer or Luhn check.
 */
const DIGIT_RUN =
  /(?<![\p{L}\p{N}_.,/:+]|[\p{L}\p{N}_][./-])\+?\d{1,19}(?:[ ./-]\d{1,19}){0,18}(?![\p{L}\p{N}_]|[.,]\d|[./-][\p{L}\p{N}_])/gu;

/** Payment card numbers: 13-19 digits as printed on cards, with a known issuer prefix, Luhn-valid. */
export function paymentCardHits(text: string): Hit[] {
  const hits: Hit[] = [];
  for (const run of allMatches(DIGIT_RUN, text)) {
    // Too short for 13 digits, as most runs (years, amounts) are; or +country code and the number's groups.
    if (run[0].length < 13 || run[0].startsWith('+')) continue;
    const groups = [...run[0].matchAll(/([ ./-]?)(\d+)/g)].map((group) => {
      const [, separator = '', digits = ''] = group;
      return { start: run.index + group.index + separator.length, digits, separator };
    });
    // Every window of whole groups that could be a card: 13-19 digits, one kind of separator.
    groups.forEach((first, i) => {
      let digits = '';
      const lengths: number[] = [];
      for (const group of groups.slice(i)) {
        if (lengths.length > 0 && group.separator !== groups[i + 1]?.separator) break;
        digits += group.digits;
        lengths.push(group.digits.length);
        if (digits.length > 19) break;
        if (digits.length >= 13 && cardLayout(lengths) && hasIssuerPrefix(digits) && luhnValid(digits))
          hits.push({ kind: 'payment-card', start: first.start, end: group.start + group.digits.length });
      }
    });
  }
  return hits;
}

/**
 * Two letters, two check digits, then 11-30 letters and digits, optionally grouped by spaces; in any
 * case, as people type them (ibantools checks the upper-case form).
 */
const IBAN_CANDIDATE = /(?<![\p{L}\p{N}])([A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){11,30})(?![\p{L}\p{N}])/giu;

/** IBANs whose country format and mod-97 check digits hold (ibantools, a maintained validator). */
function ibanHits(text: string): Hit[] {
  const hits: Hit[] = [];
  for (const match of allMatches(IBAN_CANDIDATE, text)) {
    // A grouped IBAN may run into a following word ("... 0130 00 EUR"): drop trailing groups.
    for (let candidate = match[1] ?? ''; candidate.length >= 15; candidate = candidate.replace(/ ?[A-Z0-9]+$/i, '')) {
      if (isValidIBAN(electronicFormatIBAN(candidate) ?? '')) {
        hits.push({ kind: 'bank-account', start: match.index, end: match.index + candidate.length });
        break;
      }
      if (!candidate.includes(' ')) break;
    }
  }
  return hits;
}

/** US SSN, by the SSA's rules: area not 000, 666 or 900-999; group not 00; serial not 0000. */
export function ssnValid(area: string, group: string, serial: string): boolean {
  return area !== '000' && area !== '666' && !area.startsWith('9') && group !== '00' && serial !== '0000';
}

/** UK NI prefix, by HMRC's rules: first letter not D, F, I, Q, U, V; second not D, F, I, O, Q, U, V; never allocated pairs. */
export function ninoPrefixValid(prefix: string): boolean {
  return /^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]$/.test(prefix) && !/^(?:BG|GB|KN|NK|NT|TN|ZZ)$/.test(prefix);
}

/** True when `letter` is the mod-23 check letter of the (NIE-prefix-substituted) eight-digit number. */
export const dniLetterValid = (number: string, letter: string): boolean =>
  'TRWAGMYFPDXBNJZSQVHLCKE'[Number(number) % 23] === letter.toUpperCase();

/** Dutch BSN: the "elfproef", weights 9..2 and -1. */
const elfproef = (digits: string) =>
  [...digits].reduce((sum, d, i) => sum + Number(d) * (i === 8 ? -1 : 9 - i), 0) % 11 === 0;

/** Indian Aadhaar: the Verhoeff check digit (the dihedral group D5, and powers of one permutation). */
function verhoeff(digits: string): boolean {
  const multiply = (j: number, k: number) => (j < 5 === k < 5 ? 0 : 5) + ((j < 5 ? j + k : j - k + 5) % 5);
  const PERMUTATION = [1, 5, 7, 6, 2, 8, 3, 0, 9, 4];
  let check = 0;
  [...digits].reverse().forEach((digit, i) => {
    let permuted = Number(digit);
    for (let k = 0; k < i % 8; k += 1) permuted = PERMUTATION[permuted] ?? 0;
    check = multiply(check, permuted);
  });
  return check === 0 && !/^[01]/.test(digits);
}

/**
 * `count` digits (spaces or dashes between them), a token of their own, within 20 characters after
 * a name, valid by `check`.
 */
/*#__NO_SIDE_EFFECTS__*/
const afterName = (name: string, count: number, check: (digits: string) => boolean): Rule => ({
  pattern: new RegExp(
    String.raw`\b(?:${name})\b[^\d\n]{0,20}(?<![\p{L}_])((?:\d[ -]?){${count - 1}}\d)(?![\p{L}\p{N}_])`,
    'giu',
  ),
  kind: 'national-id',
  keep: ([, digits = '']) => check(digits.replace(/[ -]/g, '')),
});

const ssnKeep: Rule['keep'] = ([, area = '', group = '', serial = '']) => ssnValid(area, group, serial);

// Free of side effects (`afterName` is marked so), so the page's bundle can leave these out.
const ID_RULES: readonly Rule[] = [
  // US SSN: NNN-NN-NNNN, a token of its own (not inside a longer dashed number or an id); or nine
  // digits right after its name.
  {
    pattern: /(?<![\p{L}\p{N}_-])(\d{3})-(\d{2})-(\d{4})(?![\p{L}\p{N}_-])/gu,
    kind: 'national-id',
    keep: ssnKeep,
  },
  {
    pattern:
      /\b(?:ssn|social security(?: number| no\.?| #)?)\b[^\d\n]{0,20}(?<![\p{L}_])(\d{3})[ -]?(\d{2})[ -]?(\d{4})(?![\p{L}\p{N}_])/giu,
    kind: 'national-id',
    keep: ssnKeep,
  },
  {
    // UK National Insurance number: QQ 12 34 56 C. Lower case only compact, so "he 12 34 56 a" is prose.
    pattern: /(?<![\p{L}\p{N}])([A-Za-z]{2}) ?(\d{2}) ?(\d{2}) ?(\d{2}) ?([A-Da-d])(?![\p{L}\p{N}])/gu,
    kind: 'national-id',
    keep: ([whole, prefix = '', , , , suffix = '']) =>
      ((prefix === prefix.toUpperCase() && suffix === suffix.toUpperCase()) || !whole.includes(' ')) &&
      ninoPrefixValid(prefix.toUpperCase()),
  },
  // Spanish DNI (eight digits) and NIE (X, Y or Z and seven), and a check letter; letters and
  // digits of any script bound them, so "12345678 días" is not one.
  {
    pattern: /(?<![\p{L}\p{N}])(\d{8})[ -]?([A-Za-z])(?![\p{L}\p{N}])/gu,
    kind: 'national-id',
    keep: ([, number = '', letter = '']) => dniLetterValid(number, letter),
  },
  {
    pattern: /(?<![\p{L}\p{N}])([XYZxyz])[ -]?(\d{7})[ -]?([A-Za-z])(?![\p{L}\p{N}])/gu,
    kind: 'national-id',
    keep: ([, lead = '', number = '', letter = '']) =>
      dniLetterValid(String('XYZ'.indexOf(lead.toUpperCase())) + number, letter),
  },
  // Only after their names: Canadian SIN, Dutch BSN, Indian Aadhaar.
  afterName('SIN|social insurance(?: number| no\\.?)?', 9, luhnValid),
  afterName('BSN|burgerservicenummer', 9, elfproef),
  afterName('Aadhaar(?: number| no\\.?)?', 12, verhoeff),
];

/** Every payment card, bank account and national ID number in one text. */
export const identifierHits = (text: string): Hit[] =>
  // All of these need digits; many intake answers have none.
  /\d/.test(text) ? [...paymentCardHits(text), ...ibanHits(text), ...ruleHits(ID_RULES, text)] : [];
