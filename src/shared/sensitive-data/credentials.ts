/**
 * Credential rules for what secretlint's preset (13) misses, or the page needs without it. Every
 * pattern is linear: bounded quantifiers, no nested repetition that can backtrack.
 */
import { type Hit, type Rule, ruleHits, type SensitiveKind } from './kinds.ts';

/** Base64 or base64url as latin1 text, as leniently as Node's Buffer (the page has no Buffer). */
function base64Latin1(text: string): string {
  const clean = (text.split('=')[0] ?? '').replaceAll('-', '+').replaceAll('_', '/');
  return atob(clean.length % 4 === 1 ? clean.slice(0, -1) : clean);
}

/** A JWT's first segment is a real JOSE header: a JSON object naming an algorithm. */
function isJoseHeader(segment: string): boolean {
  try {
    return typeof (JSON.parse(base64Latin1(segment)) as { alg?: unknown } | null)?.alg === 'string';
  } catch {
    return false;
  }
}

/** A template or one character repeated: $DB_PASSWORD, ${X}, {{x}}, %PASSWORD%, ******, xxxxxx, 000000. */
const TEMPLATE = /^[$%]|\$\{|\{\{|%[A-Za-z_]+%|^(.)\1*$/;

/** Compared lowercased, trailing `.?:` removed: values that name or stand for a credential. */
const PLACEHOLDER_WORDS = new Set(
  `available blank censored complexity configured default disabled dummy empty enabled encrypted encryption example
  expired expires expiry generated hashed hashing hidden included length managed management manager mandatory masked
  missing mypassword not-set notset omitted optional passphrase password passwords pending placeholder policies policy
  protected provided random redacted removed required rotated rotating rotation sample secret secrets storage stored
  string strength strong token tokens undefined unknown unset value withheld your-password yourpassword`.split(/\s+/),
);

/** True for values that are references, templates or words, not credentials. */
function isPlaceholder(rawValue: string): boolean {
  // Sentence punctuation after a word ("Password: required.") is not part of it; `!` often is.
  const value = rawValue.replace(/[.?:]+$/, '').toLowerCase();
  return (
    value.length < 6 ||
    PLACEHOLDER_WORDS.has(value) ||
    TEMPLATE.test(value) ||
    /^(?:process\.env|env\.|os\.environ|secrets\.|vars\.|arn:|ssm:|kms:|vault:)/.test(value) ||
    /^[a-z][a-z0-9+.-]*:\/\//.test(value) || // a URL: the URL rule's
    /^(?:\/|~\/|\.\.?\/)/.test(value) // a path
  );
}

/** A template, a `<placeholder>` or a `[placeholder]`, in a URL or connection string. */
const isTemplate = (value: string): boolean => TEMPLATE.test(value) || /^<.*>$|^\[.*\]$/.test(value);

/** Letters with digits or symbols, as chosen passwords are; a plain word, date or version is prose. */
function looksLikePassword(value: string, name: string, quoted: boolean): boolean {
  const v = value.replace(/[.,;:?)\]]+$/, '');
  if (/^pin$|^passcode$/i.test(name)) return /^\d{4,8}$/.test(v);
  if (v.length < 6 || isPlaceholder(v)) return false;
  if (quoted) return true;
  if (!/[A-Za-z]/.test(v) || /^v?\d+(?:\.\d+)+$/i.test(v)) return false;
  const symbols = /[^A-Za-z0-9]/.test(v.replace(/^-|-$/g, ''));
  return /\d/.test(v) || (symbols && !/^[a-z]+(?:-[a-z]+)*$/i.test(v));
}

/** Where the token around `index` starts: after the last space, quote or bracket, 300 characters back at most. */
function tokenStart(text: string, index: number): number {
  let start = index;
  while (start > 0 && index - start < 300 && !/[\s"'`(<[{,;]/.test(text.charAt(start - 1))) start -= 1;
  return start;
}

/** The text after a match, up to `length` characters. */
const after = (match: RegExpExecArray, text: string, length: number) =>
  text.slice(match.index + match[0].length, match.index + match[0].length + length);

/** A base64 run too long to be prose: key material after a private key header. */
const KEY_MATERIAL = /[A-Za-z0-9+/]{32}/;

/** A `key=value` naming a server or database, as in the rest of a connection string. */
const CONNECTION_KEY =
  /(?:^|[;"'\s])(?:server|data source|host|hostname|address|addr|network address|initial catalog|database|dbname|uid|user id|user|username|driver|provider|dsn)[ \t]*=[^;\n]{1,256};?/i;
const DATABASE_SCHEME =
  /^(?:amqps?|bolt|cassandra|clickhouse|cockroachdb|couchdb|db2|kafka|mariadb|memcached|mongodb(?:\+srv)?|mssql|mysqlx?|nats|neo4j(?:\+s)?|oracle|postgres(?:ql)?|rediss?|snowflake|sqlserver)$/i;

/**
 * Token formats outside the preset, or that the page needs without it: AWS access key ids (AKIA,
 * ASIA, the documented example too, as secretlint reads them), Google (API key, OAuth secret, access
 * token), Entra ID client secrets, `sk-` keys of any generation (secretlint wants newer markers),
 * Twilio (key sid, and auth tokens by its name), Mailchimp, Mailgun, Stripe webhook secrets,
 * DigitalOcean, Atlassian, PyPI, Square, Telegram bots, GitLab tokens other than glpat-, Slack
 * (workflows too) and Discord webhook URLs, Azure storage / Service Bus / Event Hubs keys, and the
 * `sig=` of a shared access signature.
 */
const PREFIXED_TOKENS: readonly (readonly [RegExp, SensitiveKind])[] = [
  [/(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g, 'cloud-access-key'],
  [/(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g, 'cloud-access-key'],
  [/(?<![A-Za-z0-9_-])GOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])/g, 'secret'],
  [/(?<![A-Za-z0-9_-])ya29\.[0-9A-Za-z_-]{20,}/g, 'api-token'],
  [/(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g, 'secret'],
  [/(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-|ant-[a-z0-9]{2,10}-)?[A-Za-z0-9_-]{40,}/g, 'api-token'],
  [/(?<![A-Za-z0-9])SK[0-9a-fA-F]{32}(?![A-Za-z0-9])/g, 'api-token'],
  [/twilio[^\n]{0,60}?(?<![0-9a-fA-F])[0-9a-f]{32}(?![0-9a-fA-F])/gi, 'api-token'],
  [/(?<![0-9a-f])[0-9a-f]{32}-us\d{1,2}(?![0-9])/g, 'api-token'],
  [/(?<![A-Za-z0-9])key-[0-9a-zA-Z]{32}(?![A-Za-z0-9])/g, 'api-token'],
  [/(?<![A-Za-z0-9_])whsec_[A-Za-z0-9+/]{24,}/g, 'secret'],
  [/(?<![A-Za-z0-9_])do[opr]_v1_[a-f0-9]{64}(?![a-f0-9])/g, 'api-token'],
  [/(?<![A-Za-z0-9_])ATATT3[A-Za-z0-9_=-]{100,}/g, 'api-token'],
  [/(?<![A-Za-z0-9_-])pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/g, 'api-token'],
  [/(?<![A-Za-z0-9_-])sq0(?:atp|csp)-[0-9A-Za-z_-]{22,43}/g, 'api-token'],
  [/(?<![0-9])\d{8,10}:AA[0-9A-Za-z_-]{33}(?![0-9A-Za-z_-])/g, 'api-token'],
  [/(?<![A-Za-z0-9_-])gl(?:ptt|dt|rt|soat|ffct|cbt|oas|imt|agent)-[A-Za-z0-9_-]{20,}/g, 'api-token'],
  [/https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{20,}/g, 'api-token'],
  [/https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]{40,}/g, 'api-token'],
  [/(?<![A-Za-z0-9])(?:AccountKey|SharedAccessKey)[ \t]*=[ \t]*[A-Za-z0-9+/]{20,}={0,2}/gi, 'connection-string'],
  [/[?&;]sig=[A-Za-z0-9%+/]{20,}/g, 'url-credentials'],
];

const RULES: readonly Rule[] = [
  {
    // A secret access key: 40 random base64 characters (hex hashes have one case) after AWS words.
    pattern: /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    kind: 'cloud-access-key',
    keep: (match, text) =>
      /[A-Z]/.test(match[0]) &&
      /[a-z]/.test(match[0]) &&
      /[0-9]/.test(match[0]) &&
      /aws|secret|access[ _-]?key|credential|AKIA|ASIA/i.test(text.slice(Math.max(0, match.index - 120), match.index)),
  },
  {
    // Any PEM private key header with key material within a few (PGP: `Version:`) lines; a header
    // alone ("we keep the -----BEGIN PRIVATE KEY----- in KMS") is talk.
    pattern: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g,
    kind: 'private-key',
    keep: (match, text) => KEY_MATERIAL.test(after(match, text, 400)),
  },
  {
    pattern: /PuTTY-User-Key-File-\d+:[\s\S]{0,2000}?Private-Lines:/g,
    kind: 'private-key',
    keep: (match, text) => KEY_MATERIAL.test(after(match, text, 40)),
  },
  {
    // header.payload.signature, base64url; every JOSE header starts with `{"`, which is `eyJ`.
    pattern: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
    kind: 'jwt',
    keep: ([value]) => isJoseHeader(value.slice(0, value.indexOf('.'))),
  },
  {
    // A credential-ish name (or the tail of one: DB_PASSWORD, x-api-key), an operator, a value.
    // Plurals ("passwords: ...", "Secrets Manager") do not match: the operator follows the name.
    pattern:
      /(passphrase|password|passwd|pwd|secret|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|authtoken|refresh[_-]?token|token)["']?[ \t]*(?::=|=>|=|:)[ \t]*["'`]?([^\s"'`,;<>()[\]{}]{6,})/gi,
    kind: ([, name = '']) => {
      const lower = name.toLowerCase();
      if (lower.startsWith('pass') || lower === 'pwd') return 'password';
      return lower === 'secret' ? 'secret' : 'api-token';
    },
    keep: (match, text) => {
      const value = match[2] ?? '';
      // "MFA token: hardware keys for admins" is a sentence: one plain word, then more words.
      const sentence = /^[A-Za-z][a-z]+(?:-[a-z]+)*$/.test(value) && /^ [a-z]/.test(after(match, text, 2));
      // arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db names a secret, it is not one,
      // in prose or quoted ("arn:…" in JSON).
      return !isPlaceholder(value) && !sentence && !text.startsWith('arn:', tokenStart(text, match.index));
    },
    generic: true,
  },
  { pattern: /\bBearer[ \t]+[A-Za-z0-9._~+/-]{20,}=*/g, kind: 'api-token', generic: true },
  {
    // Basic credentials: base64 of a printable user:password, not the word "Basic" and a word.
    pattern: /\bBasic[ \t]+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/g,
    kind: 'password',
    keep: ([, value = '']) => /^[\x20-\x7e]+:[\x20-\x7e]{3,}$/.test(base64Latin1(value)),
  },
  {
    // scheme://[user]:password@host (user may be empty: redis://:password@host).
    pattern: /\b([a-z][a-z0-9+.-]{1,30}):\/\/([^\s:/?#@"'<>]{0,256}):([^\s/?#@"'<>]{1,256})@(?=[A-Za-z0-9[])/gi,
    kind: ([, scheme = '']) => (DATABASE_SCHEME.test(scheme) ? 'connection-string' : 'url-credentials'),
    keep: ([, , , password = '']) =>
      !/^(?:password|pass|passwd|pwd|secret|xxx|changeme)$/i.test(password) && !isTemplate(password),
  },
  {
    // `Password=` in an ADO.NET / ODBC string: only among server or database pairs (alone, the
    // assignment rule reports it as a password).
    pattern: /(?<![A-Za-z0-9])(?:password|pwd)[ \t]*=[ \t]*(?:"([^"\n]{1,256})"|'([^'\n]{1,256})'|([^;\s"']{1,256}))/gi,
    kind: 'connection-string',
    keep: (match, text) => {
      const end = match.index + match[0].length;
      const lineEnd = text.indexOf('\n', end);
      const line = text.slice(
        Math.max(text.lastIndexOf('\n', match.index) + 1, match.index - 300),
        lineEnd === -1 ? end + 300 : Math.min(lineEnd, end + 300),
      );
      return !isTemplate(match[1] ?? match[2] ?? match[3] ?? '') && CONNECTION_KEY.test(line) && line.includes(';');
    },
  },
  {
    // Passwords in sentences: "our admin password is Tr0ub4dor&123", "pw: Summer2024!", "PIN is 4821",
    // "password — Tr0ub4dor&123": a colon (∶ and ꞉ too), any dash (\p{Pd}, the minus sign), or a
    // hyphen-minus with a space beside it ("password-protected" is a word, not a value).
    pattern:
      /\b(pass(?:word|phrase|wd|code)|pw|pwd|pin)\b(?:[ \t]+(?:for|of|to|on)[ \t]+[\w@.-]{1,40})?[ \t]*(?:[ \t](?:is|was|are|reads|will be|would be|should be|set to|remains|stays)[ \t]+|[:=\u2236\uA789][ \t]*|->[ \t]*|(?:(?!-)\p{Pd}|\u2212)+[ \t]*|(?<=[ \t])-{1,2}[ \t]*|-{1,2}[ \t]+)(["'`“‘]?)([^\s"'`”’]{4,64})\2/giu,
    kind: 'password',
    keep: ([, name = '', quote = '', value = '']) => looksLikePassword(value, name, quote !== ''),
    generic: true,
  },
  {
    // "passphrase 'two words-and more'": a quoted value right after the name.
    pattern: /\b(pass(?:word|phrase|code)|pw|pin)[ \t]+(["'`“‘])([^"'`”’\n]{6,64})["'`”’]/gi,
    kind: 'password',
    keep: ([, name = '', , value = '']) => looksLikePassword(value, name, true),
    generic: true,
  },
  ...PREFIXED_TOKENS.map(([pattern, kind]) => ({ pattern, kind })),
];

/** Every credential our own detectors find in one text. */
export const credentialHits = (text: string): Hit[] => ruleHits(RULES, text);
