/**
 * Our own credential detectors, for what secretlint's recommended preset does not report (checked
 * against @secretlint/secretlint-rule-preset-recommend 13):
 *
 * - AWS's documented example key pair (secretlint ignores the `AKIA...EXAMPLE` id and its secret)
 *   and secret access keys written in prose ("the secret key is ...") rather than
 *   `aws_secret_access_key=`;
 * - private key blocks shorter than a full key (a truncated paste still leaks key material);
 * - JWTs;
 * - `password=...` / `pwd: ...` / `api_key: ...` / `token=...` assignments, bearer and basic headers;
 * - URLs with credentials in any scheme (secretlint: http, ftp, postgres, mysql, mongodb only, and
 *   it skips passwords it judges to be examples), ADO.NET / ODBC connection strings
 *   (`Server=...;Password=...`), Azure storage and Service Bus keys, SAS signatures;
 * - a few well-known token formats outside the preset (Google, Twilio, Mailchimp, Mailgun, ...).
 *
 * Every pattern is linear: bounded or possessive-by-construction quantifiers, no nested repetition
 * that can backtrack over the same characters.
 */
import { base64Latin1, base64Utf8 } from './base64.ts';
import { allMatches, type Hit, type SensitiveKind } from './kinds.ts';

// ---------------------------------------------------------------------------------------------
// AWS

/**
 * Long-term (AKIA) and temporary (ASIA) access key ids, including AWS's documentation example;
 * letters and digits as secretlint's AWS rule reads them, so the page (which has no secretlint)
 * flags every id the function refuses.
 */
const AWS_ACCESS_KEY_ID = /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g;

/** A 40-character base64 run: the shape of an AWS secret access key. */
const FORTY_BASE64 = /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g;
/** Words that make a 40-character run a secret access key rather than, say, a long path. */
const AWS_SECRET_CONTEXT = /aws|secret|access[ _-]?key|credential|AKIA|ASIA/i;

function awsHits(text: string, hits: Hit[]): void {
  for (const match of allMatches(AWS_ACCESS_KEY_ID, text)) {
    hits.push({ kind: 'cloud-access-key', start: match.index, end: match.index + match[0].length });
  }
  for (const match of allMatches(FORTY_BASE64, text)) {
    const value = match[0];
    // Real keys are random: they mix cases and digits. Hex hashes (git commits) have one case only.
    if (!/[A-Z]/.test(value) || !/[a-z]/.test(value) || !/[0-9]/.test(value)) continue;
    const before = text.slice(Math.max(0, match.index - 120), match.index);
    if (!AWS_SECRET_CONTEXT.test(before)) continue;
    hits.push({ kind: 'cloud-access-key', start: match.index, end: match.index + value.length });
  }
}

// ---------------------------------------------------------------------------------------------
// Private keys

/** Any PEM private key header: RSA, EC, DSA, OPENSSH, ENCRYPTED, PGP ... BLOCK. */
const PEM_PRIVATE_KEY_HEADER = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
/** Key material: a base64 run long enough not to be prose, within a few header lines. */
const KEY_MATERIAL = /[A-Za-z0-9+/]{32}/;
const PUTTY_PRIVATE_LINES = /PuTTY-User-Key-File-\d+:[\s\S]{0,2000}?Private-Lines:/g;

function privateKeyHits(text: string, hits: Hit[]): void {
  for (const match of allMatches(PEM_PRIVATE_KEY_HEADER, text)) {
    const end = match.index + match[0].length;
    // A header alone ("we keep the -----BEGIN PRIVATE KEY----- in KMS") is talk, not a key.
    // PGP blocks carry a few `Version:`-style lines first, so look a little further.
    if (!KEY_MATERIAL.test(text.slice(end, end + 400))) continue;
    hits.push({ kind: 'private-key', start: match.index, end });
  }
  for (const match of allMatches(PUTTY_PRIVATE_LINES, text)) {
    const end = match.index + match[0].length;
    if (!KEY_MATERIAL.test(text.slice(end, end + 40))) continue;
    hits.push({ kind: 'private-key', start: match.index, end });
  }
}

// ---------------------------------------------------------------------------------------------
// JWT

/** header.payload.signature, base64url; the header of every JWS/JWE starts with `{"` = `eyJ`. */
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g;

/** True when the first segment decodes to a JSON object naming an algorithm: a real JOSE header. */
function isJoseHeader(segment: string): boolean {
  try {
    const header: unknown = JSON.parse(base64Utf8(segment));
    return typeof header === 'object' && header !== null && typeof (header as { alg?: unknown }).alg === 'string';
  } catch {
    return false;
  }
}

function jwtHits(text: string, hits: Hit[]): void {
  for (const match of allMatches(JWT, text)) {
    const header = match[0].slice(0, match[0].indexOf('.'));
    if (!isJoseHeader(header)) continue;
    hits.push({ kind: 'jwt', start: match.index, end: match.index + match[0].length });
  }
}

// ---------------------------------------------------------------------------------------------
// Assignments: password=..., pwd: ..., api_key: "...", DB_PASSWORD=..., "token": "..."

/**
 * A credential-ish name (possibly the tail of a longer one: DB_PASSWORD, client_secret, x-api-key,
 * dbPassword), an assignment operator, and a value without spaces. Plurals ("passwords: ...",
 * "Secrets Manager") do not match: the operator must follow the name directly.
 */
const ASSIGNMENT =
  /(passphrase|password|passwd|pwd|secret|api[_-]?key|apikey|access[_-]?token|auth[_-]?token|authtoken|refresh[_-]?token|token)["']?[ \t]*(?::=|=>|=|:)[ \t]*["'`]?([^\s"'`,;<>()[\]{}]{6,})/gi;

/**
 * Values that name or stand for a credential rather than being one. Compared lowercased, with
 * trailing `.`, `?` and `:` removed.
 */
const PLACEHOLDER_WORDS = new Set([
  'available',
  'blank',
  'censored',
  'complexity',
  'configured',
  'default',
  'disabled',
  'dummy',
  'empty',
  'enabled',
  'encrypted',
  'encryption',
  'example',
  'expired',
  'expires',
  'expiry',
  'generated',
  'hashed',
  'hashing',
  'hidden',
  'included',
  'length',
  'managed',
  'management',
  'manager',
  'mandatory',
  'masked',
  'missing',
  'mypassword',
  'not-set',
  'notset',
  'omitted',
  'optional',
  'passphrase',
  'password',
  'passwords',
  'pending',
  'placeholder',
  'policies',
  'policy',
  'protected',
  'provided',
  'random',
  'redacted',
  'removed',
  'required',
  'rotated',
  'rotating',
  'rotation',
  'sample',
  'secret',
  'secrets',
  'storage',
  'stored',
  'string',
  'strength',
  'strong',
  'token',
  'tokens',
  'undefined',
  'unknown',
  'unset',
  'value',
  'withheld',
  'your-password',
  'yourpassword',
]);

/** True for values that are references, templates or words, not credentials. */
export function isPlaceholder(rawValue: string): boolean {
  // Sentence punctuation after a word ("Password: required.") is not part of it; `!` often is.
  const value = rawValue.replace(/[.?:]+$/, '').toLowerCase();
  if (value.length < 6) return true; // "none..."
  if (PLACEHOLDER_WORDS.has(value)) return true;
  if (/^(.)\1*$/.test(value)) return true; // ******, xxxxxx, 000000
  if (/^[$%]|\$\{|\{\{|%[a-z_]+%/.test(value)) return true; // $DB_PASSWORD, ${X}, %PASSWORD%
  if (/^(?:process\.env|env\.|os\.environ|secrets\.|vars\.|arn:|ssm:|kms:|vault:)/.test(value)) return true;
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(value)) return true; // a URL: handled by the URL detector
  if (/^(?:\/|~\/|\.\.?\/)/.test(value)) return true; // a path
  return false;
}

/** A plain word, possibly capitalized or hyphenated: prose, when more words follow it. */
const PLAIN_WORD = /^[A-Za-z][a-z]+(?:-[a-z]+)*$/;

const kindOfName = (name: string): SensitiveKind => {
  const lower = name.toLowerCase();
  if (lower.startsWith('pass') || lower === 'pwd') return 'password';
  if (lower === 'secret') return 'secret';
  return 'api-token';
};

/** `Authorization: Bearer <token>` and `Authorization: Basic <base64 of user:password>`. */
const BEARER = /\bBearer[ \t]+[A-Za-z0-9._~+/-]{20,}=*/g;
const BASIC = /\bBasic[ \t]+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/g;

function assignmentHits(text: string, hits: Hit[]): void {
  for (const match of allMatches(ASSIGNMENT, text)) {
    const [whole, name = '', value = ''] = match;
    if (isPlaceholder(value)) continue;
    const end = match.index + whole.length;
    // "MFA token: hardware keys for admins" is a sentence: one plain word, then more words.
    if (PLAIN_WORD.test(value) && /^ [a-z]/.test(text.slice(end, end + 2))) continue;
    // arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/db names a secret, it is not one.
    const tokenStart = Math.max(text.lastIndexOf(' ', match.index), text.lastIndexOf('\n', match.index)) + 1;
    if (text.startsWith('arn:', tokenStart)) continue;
    hits.push({ kind: kindOfName(name), start: match.index, end, generic: true });
  }
  for (const match of allMatches(BEARER, text)) {
    hits.push({ kind: 'api-token', start: match.index, end: match.index + match[0].length, generic: true });
  }
  for (const match of allMatches(BASIC, text)) {
    const decoded = base64Latin1(match[1] ?? '');
    // user:password, printable: real basic credentials, not the word "Basic" followed by a word.
    if (!/^[\x20-\x7e]+:[\x20-\x7e]{3,}$/.test(decoded)) continue;
    hits.push({ kind: 'password', start: match.index, end: match.index + match[0].length });
  }
}

// ---------------------------------------------------------------------------------------------
// URLs and connection strings

/** scheme://[user]:password@host (user may be empty: redis://:password@host). */
const URL_WITH_PASSWORD =
  /\b([a-z][a-z0-9+.-]{1,30}):\/\/([^\s:/?#@"'<>]{0,256}):([^\s/?#@"'<>]{1,256})@(?=[A-Za-z0-9[])/gi;

/** Schemes whose URLs are connection strings (databases, caches, brokers, directories). */
const DATABASE_SCHEMES = new Set([
  'amqp',
  'amqps',
  'bolt',
  'cassandra',
  'clickhouse',
  'cockroachdb',
  'couchdb',
  'db2',
  'kafka',
  'mariadb',
  'memcached',
  'mongodb',
  'mongodb+srv',
  'mssql',
  'mysql',
  'mysqlx',
  'nats',
  'neo4j',
  'neo4j+s',
  'oracle',
  'postgres',
  'postgresql',
  'redis',
  'rediss',
  'snowflake',
  'sqlserver',
]);

/** Passwords in URLs that are placeholders: `user:password@`, `:pass@`, `:***@`. */
const URL_PLACEHOLDER_PASSWORDS = new Set(['password', 'pass', 'passwd', 'pwd', 'secret', 'xxx', 'changeme']);

/** `Password=` / `Pwd=` inside an ADO.NET / ODBC / JDBC-properties connection string. */
const KEYVALUE_PASSWORD =
  /(?<![A-Za-z0-9])(?:password|pwd)[ \t]*=[ \t]*(?:"[^"\n]{1,256}"|'[^'\n]{1,256}'|[^;\s"']{1,256})/gi;
/** A `key=value;` pair naming the server or database: the rest of such a connection string. */
const CONNECTION_KEY =
  /(?:^|[;"'\s])(?:server|data source|host|hostname|address|addr|network address|initial catalog|database|dbname|uid|user id|user|username|driver|provider|dsn)[ \t]*=[^;\n]{1,256};?/i;

/** Azure storage / Service Bus / Event Hubs keys inside a connection string. */
const AZURE_KEY = /(?<![A-Za-z0-9])(?:AccountKey|SharedAccessKey)[ \t]*=[ \t]*[A-Za-z0-9+/]{20,}={0,2}/gi;
/** Azure shared access signature: the `sig=` parameter of a SAS URL or token. */
const SAS_SIGNATURE = /[?&;]sig=[A-Za-z0-9%+/]{20,}/g;

function connectionHits(text: string, hits: Hit[]): void {
  for (const match of allMatches(URL_WITH_PASSWORD, text)) {
    const scheme = (match[1] ?? '').toLowerCase();
    const password = match[3] ?? '';
    if (URL_PLACEHOLDER_PASSWORDS.has(password.toLowerCase()) || isTemplate(password) || /^(.)\1*$/.test(password)) {
      continue;
    }
    hits.push({
      kind: DATABASE_SCHEMES.has(scheme) ? 'connection-string' : 'url-credentials',
      start: match.index,
      end: match.index + match[0].length,
    });
  }
  for (const match of allMatches(KEYVALUE_PASSWORD, text)) {
    const start = match.index;
    const end = start + match[0].length;
    const value = match[0]
      .slice(match[0].indexOf('=') + 1)
      .trim()
      .replace(/^["']|["']$/g, '');
    if (isTemplate(value) || /^(.)\1*$/.test(value)) continue;
    const lineStart = text.lastIndexOf('\n', start) + 1;
    const lineEnd = text.indexOf('\n', end);
    const line = text.slice(
      Math.max(lineStart, start - 300),
      lineEnd === -1 ? end + 300 : Math.min(lineEnd, end + 300),
    );
    // Only a password among server/database pairs is a connection string; alone, the assignment
    // detector reports it as a password.
    if (!CONNECTION_KEY.test(line) || !line.includes(';')) continue;
    hits.push({ kind: 'connection-string', start, end });
  }
  for (const match of allMatches(AZURE_KEY, text)) {
    hits.push({ kind: 'connection-string', start: match.index, end: match.index + match[0].length });
  }
  for (const match of allMatches(SAS_SIGNATURE, text)) {
    hits.push({ kind: 'url-credentials', start: match.index, end: match.index + match[0].length });
  }
}

const isTemplate = (value: string): boolean => /^[$%]|\$\{|\{\{|%[A-Za-z_]+%|^<.*>$|^\[.*\]$/.test(value);

// ---------------------------------------------------------------------------------------------
// Well-known token formats outside the preset

const PREFIXED_TOKENS: readonly (readonly [RegExp, SensitiveKind])[] = [
  // Google Cloud API key.
  [/(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g, 'cloud-access-key'],
  // Google OAuth client secret and access token.
  [/(?<![A-Za-z0-9_-])GOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])/g, 'secret'],
  [/(?<![A-Za-z0-9_-])ya29\.[0-9A-Za-z_-]{20,}/g, 'api-token'],
  // Microsoft Entra ID (Azure AD) client secret: three characters, a digit, `Q~`, then 31-34.
  [/(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g, 'secret'],
  // OpenAI / Anthropic style `sk-...` keys of any generation (secretlint requires newer markers).
  [/(?<![A-Za-z0-9_-])sk-(?:proj-|svcacct-|admin-|ant-[a-z0-9]{2,10}-)?[A-Za-z0-9_-]{40,}/g, 'api-token'],
  // Twilio API key sid (the secret's other half) and auth tokens next to the word Twilio.
  [/(?<![A-Za-z0-9])SK[0-9a-fA-F]{32}(?![A-Za-z0-9])/g, 'api-token'],
  [/twilio[^\n]{0,60}?(?<![0-9a-fA-F])[0-9a-f]{32}(?![0-9a-fA-F])/gi, 'api-token'],
  // Mailchimp, Mailgun.
  [/(?<![0-9a-f])[0-9a-f]{32}-us\d{1,2}(?![0-9])/g, 'api-token'],
  [/(?<![A-Za-z0-9])key-[0-9a-zA-Z]{32}(?![A-Za-z0-9])/g, 'api-token'],
  // Stripe webhook signing secret (API keys are in the preset).
  [/(?<![A-Za-z0-9_])whsec_[A-Za-z0-9+/]{24,}/g, 'secret'],
  // DigitalOcean, Atlassian, PyPI, Square, Telegram bot, GitLab tokens other than glpat-.
  [/(?<![A-Za-z0-9_])do[opr]_v1_[a-f0-9]{64}(?![a-f0-9])/g, 'api-token'],
  [/(?<![A-Za-z0-9_])ATATT3[A-Za-z0-9_=-]{100,}/g, 'api-token'],
  [/(?<![A-Za-z0-9_-])pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}/g, 'api-token'],
  [/(?<![A-Za-z0-9_-])sq0(?:atp|csp)-[0-9A-Za-z_-]{22,43}/g, 'api-token'],
  [/(?<![0-9])\d{8,10}:AA[0-9A-Za-z_-]{33}(?![0-9A-Za-z_-])/g, 'api-token'],
  [/(?<![A-Za-z0-9_-])gl(?:ptt|dt|rt|soat|ffct|cbt|oas|imt|agent)-[A-Za-z0-9_-]{20,}/g, 'api-token'],
  // Slack, Discord webhooks: the URL is the credential.
  [/https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{20,}/g, 'api-token'],
  [/https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]{40,}/g, 'api-token'],
];

function prefixedTokenHits(text: string, hits: Hit[]): void {
  for (const [pattern, kind] of PREFIXED_TOKENS) {
    for (const match of allMatches(pattern, text)) {
      hits.push({ kind, start: match.index, end: match.index + match[0].length });
    }
  }
}

/** Every credential our own detectors find in one text. */
export function credentialHits(text: string): Hit[] {
  const hits: Hit[] = [];
  awsHits(text, hits);
  privateKeyHits(text, hits);
  jwtHits(text, hits);
  assignmentHits(text, hits);
  connectionHits(text, hits);
  prefixedTokenHits(text, hits);
  return hits;
}
