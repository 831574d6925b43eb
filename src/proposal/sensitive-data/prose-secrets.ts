/**
 * Secrets written as sentences rather than assignments: "our admin password is Tr0ub4dor&123",
 * "pw: Summer2024!", "the passphrase 'blue-Elephant-42'", "PIN is 4821". The value must look like
 * a secret (letters mixed with digits or symbols, or a quoted value, or digits after PIN), so
 * "the password is managed by IT" and "password is rotated every 90 days" pass.
 */
import { isPlaceholder } from './credentials.ts';
import { allMatches, type Hit } from './kinds.ts';

/** A name, optionally "for <thing>", a linking verb or sign, then the value. */
const NAMED_VALUE =
  /\b(pass(?:word|phrase|wd|code)|pw|pwd|pin)\b(?:[ \t]+(?:for|of|to|on)[ \t]+[\w@.-]{1,40})?[ \t]*(?:[ \t](?:is|was|are|reads|will be|would be|should be|set to|remains|stays)[ \t]+|[:=][ \t]*|->[ \t]*)(["'`“‘]?)([^\s"'`”’]{4,64})\2/gi;
/** "passphrase 'two words-and more'" or "password “x”": a quoted value right after the name. */
const QUOTED_AFTER_NAME = /\b(pass(?:word|phrase|code)|pw|pin)[ \t]+(["'`“‘])([^"'`”’\n]{6,64})["'`”’]/gi;

const TRAILING_PUNCTUATION = /[.,;:?)\]]+$/;

/** Letters with digits or symbols, as chosen passwords are; a plain word or number is prose. */
function looksLikeSecret(value: string, name: string, quoted: boolean): boolean {
  const v = value.replace(TRAILING_PUNCTUATION, '');
  if (/^pin$|^passcode$/i.test(name)) return /^\d{4,8}$/.test(v);
  if (v.length < 6 || isPlaceholder(v)) return false;
  if (quoted) return true;
  const letters = /[A-Za-z]/.test(v);
  const digits = /\d/.test(v);
  const symbols = /[^A-Za-z0-9]/.test(v.replace(/^-|-$/g, ''));
  // Dates, versions and amounts ("2025-01-01", "v1.2.3", "$120,000") are not passwords.
  if (!letters) return false;
  if (/^v?\d+(?:\.\d+)+$/i.test(v)) return false;
  return digits || (symbols && !/^[a-z]+(?:-[a-z]+)*$/i.test(v));
}

export function proseSecretHits(text: string): Hit[] {
  const hits: Hit[] = [];
  if (!/pass|pw|pin/i.test(text)) return hits;
  for (const match of allMatches(NAMED_VALUE, text)) {
    const [whole, name = '', quote = '', value = ''] = match;
    if (looksLikeSecret(value, name, quote !== ''))
      hits.push({ kind: 'password', start: match.index, end: match.index + whole.length, generic: true });
  }
  for (const match of allMatches(QUOTED_AFTER_NAME, text)) {
    const [whole, name = '', , value = ''] = match;
    if (looksLikeSecret(value, name, true))
      hits.push({ kind: 'password', start: match.index, end: match.index + whole.length, generic: true });
  }
  return hits;
}
