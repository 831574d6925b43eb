/**
 * Ordinary technical values, generated: the ids the workspace and the SDKs make (UUIDs of every
 * version and spelling, ULIDs, nanoids), AWS account and request ids, ARNs, IP addresses, phone
 * numbers, versions, dates and times, alone and inside sentences. None of them is a credential, a
 * card or an ID number, so the sensitive-data guard must refuse none: item 7 of `npm run bench`
 * counts what it refuses in a million, tests/unit/sensitive-data-technical.test.ts a seeded sample.
 *
 * Every value comes from one `Random`, so a seed gives the same values. Erasable TypeScript only.
 */

/** A number in [0, 1). */
export type Random = () => number;

/** A small, fast seeded generator (mulberry32): same seed, same sequence. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const int = (random: Random, below: number): number => Math.floor(random() * below);
const between = (random: Random, low: number, high: number): number => low + int(random, high - low + 1);
const pick = <T>(random: Random, items: readonly T[]): T => items[int(random, items.length)] as T;
const chars = (random: Random, alphabet: string, length: number): string =>
  Array.from({ length }, () => alphabet[int(random, alphabet.length)]).join('');
const digits = (random: Random, length: number): string => chars(random, '0123456789', length);
const hex = (random: Random, length: number): string => chars(random, '0123456789abcdef', length);
const pad = (value: number, length = 2): string => String(value).padStart(length, '0');

const HEX = '0123456789abcdef';
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const NANOID = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** A time between 2000 and 2035 (ms): ids and timestamps made now and for years to come. */
const someTime = (random: Random): number => Date.UTC(2000, 0, 1) + int(random, 35 * 365.25 * 86_400_000);

/** RFC 9562 layout: 16 bytes as 8-4-4-4-12 hex, version nibble and variant bits set. */
function uuidFromBytes(bytes: readonly number[], version: number): string {
  const b = [...bytes];
  b[6] = ((b[6] ?? 0) & 0x0f) | (version << 4);
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = b.map((byte) => (HEX[byte >> 4] ?? '') + (HEX[byte & 15] ?? '')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const randomBytes = (random: Random, length: number): number[] => Array.from({ length }, () => int(random, 256));

/** A version 4 UUID, as `crypto.randomUUID()` makes it. */
export const uuidV4 = (random: Random): string => uuidFromBytes(randomBytes(random, 16), 4);

/** A version 7 UUID, as src/proposal/store/time-ordered-id.ts makes it: 48 bits of ms first. */
export function uuidV7(random: Random, at = someTime(random)): string {
  const bytes = randomBytes(random, 16);
  for (let i = 0; i < 6; i++) bytes[i] = Math.floor(at / 2 ** (8 * (5 - i))) % 256;
  return uuidFromBytes(bytes, 7);
}

/** Any version (1 to 8), in any of the spellings people paste: upper case, braces, urn:uuid:, no hyphens. */
function uuidAnySpelling(random: Random): string {
  const version = pick(random, [1, 2, 3, 4, 5, 6, 7, 8]);
  const uuid = version === 7 ? uuidV7(random) : uuidFromBytes(randomBytes(random, 16), version);
  const cased = random() < 0.5 ? uuid.toUpperCase() : uuid;
  return pick(random, [cased, `{${cased}}`, `urn:uuid:${uuid}`, cased.replaceAll('-', '')]);
}

/** A ULID: 48 bits of ms then 80 random bits, Crockford base32; upper case, sometimes lower. */
export function ulid(random: Random): string {
  let time = someTime(random);
  let head = '';
  for (let i = 0; i < 10; i++) {
    head = (CROCKFORD[time % 32] ?? '') + head;
    time = Math.floor(time / 32);
  }
  const value = head + chars(random, CROCKFORD, 16);
  return random() < 0.2 ? value.toLowerCase() : value;
}

/** A nanoid: 21 characters of its URL-safe alphabet. */
export const nanoid = (random: Random): string => chars(random, NANOID, 21);

/** Twelve digits, as AWS shows them: run together or, in the console, 1234-5678-9012. */
function awsAccountId(random: Random): string {
  const id = digits(random, 12);
  return random() < 0.25 ? `${id.slice(0, 4)}-${id.slice(4, 8)}-${id.slice(8)}` : id;
}

/** x-amzn-RequestId (a UUID), an X-Ray trace id, a CloudFront id or an S3 extended request id. */
function awsRequestId(random: Random): string {
  return pick(random, [
    () => uuidV4(random),
    () => `1-${Math.floor(someTime(random) / 1000).toString(16)}-${hex(random, 24)}`,
    () => `Root=1-${Math.floor(someTime(random) / 1000).toString(16)}-${hex(random, 24)};Sampled=1`,
    () => `${chars(random, BASE64.slice(0, 62) + '_-', 54)}==`,
    () => chars(random, BASE64, 76),
  ])();
}

/** An S3 request id (x-amz-request-id): 16 upper-case hex digits. */
const s3RequestId = (random: Random): string => hex(random, 16).toUpperCase();

const REGIONS = [
  'us-east-1',
  'us-west-2',
  'eu-west-1',
  'eu-central-1',
  'ap-southeast-2',
  'ap-northeast-1',
  'sa-east-1',
];

/** ARNs of the resources people name in an intake: roles, functions, instances, keys, executions, logs. */
function arn(random: Random): string {
  const partition = pick(random, ['aws', 'aws', 'aws', 'aws-cn', 'aws-us-gov']);
  const region = pick(random, REGIONS);
  const account = digits(random, 12);
  const at = new Date(someTime(random));
  const day = `${at.getUTCFullYear()}/${pad(at.getUTCMonth() + 1)}/${pad(at.getUTCDate())}`;
  const [service, inRegion, resource] = pick(random, [
    () => ['iam', '', `role/Deploy${digits(random, 4)}`],
    () => ['iam', '', `user/ci-${digits(random, 6)}`],
    () => ['sts', '', `assumed-role/Admin/${digits(random, 10)}`],
    () => ['lambda', region, `function:orders-${digits(random, 3)}:${between(random, 1, 400)}`],
    () => ['ec2', region, `instance/i-0${hex(random, 16)}`],
    () => ['ec2', region, `volume/vol-0${hex(random, 16)}`],
    () => ['kms', region, `key/${uuidV4(random)}`],
    () => ['acm', region, `certificate/${uuidV4(random)}`],
    () => ['states', region, `execution:Orders:${uuidV4(random)}`],
    () => ['sns', region, `alerts:${uuidV4(random)}`],
    () => ['secretsmanager', region, `secret:prod/db-${chars(random, BASE64.slice(0, 62), 6)}`],
    () => ['dynamodb', region, `table/Orders/stream/${at.toISOString().slice(0, 23)}`],
    () => ['logs', region, `log-group:/aws/lambda/orders:log-stream:${day}/[$LATEST]${hex(random, 32)}`],
    () => ['ecs', region, `task/prod/${hex(random, 32)}`],
    () => ['rds', region, `db:orders-${digits(random, 4)}`],
  ])();
  // S3 names neither a region nor an account.
  if (random() < 0.1)
    return `arn:${partition}:s3:::bucket-${digits(random, 6)}/exports/${day}/${digits(random, 16)}.csv`;
  return `arn:${partition}:${service}:${inRegion}:${account}:${resource}`;
}

/** IPv4, sometimes with a port or a prefix length. */
function ipv4(random: Random): string {
  const address = Array.from({ length: 4 }, () => int(random, 256)).join('.');
  return pick(random, [
    address,
    address,
    `${address}:${between(random, 1, 65535)}`,
    `${address}/${between(random, 8, 32)}`,
  ]);
}

/** IPv6: full, zero-compressed, with an embedded IPv4, a zone or a port. */
function ipv6(random: Random): string {
  const groups = Array.from({ length: 8 }, () =>
    random() < 0.5 ? hex(random, 4) : hex(random, between(random, 1, 4)),
  );
  const from = between(random, 1, 6);
  return pick(random, [
    groups.join(':'),
    `${groups.slice(0, from).join(':')}::${groups.slice(from + 2).join(':')}`,
    `2001:db8::${groups.slice(0, 2).join(':')}`,
    `fe80::${groups.slice(4).join(':')}%eth0`,
    `::ffff:${Array.from({ length: 4 }, () => int(random, 256)).join('.')}`,
    `[${groups.join(':')}]:${between(random, 1, 65535)}`,
  ]);
}

/** National layouts: each a template of `#` digits (leading digits fixed where the plan fixes them). */
const NATIONAL_LAYOUTS = [
  '(###) ###-####',
  '###-###-####',
  '###.###.####',
  '1-###-###-####',
  '### ### ####',
  '020 #### ####',
  '07### ######',
  '(020) #### ####',
  '030 ########',
  '0151 ########',
  '030/#######',
  '06 ## ## ## ##',
  '06.##.##.##.##',
  '06-########',
  '020 ### ####',
  '6## ## ## ##',
  '9## ### ###',
  '3## ### ####',
  '02 #### ####',
  '04## ### ###',
  '(02) #### ####',
  '6### ####',
  '9### ####',
  '090-####-####',
  '03-####-####',
  '1## #### ####',
  '010-####-####',
  '9#### #####',
  '(11) 9####-####',
  '0044 20 #### ####',
  '00 49 151 ########',
];

/** Country code and national number length, with an international layout for each. */
const COUNTRIES: readonly (readonly [string, number, string])[] = [
  ['1', 10, '### ### ####'],
  ['44', 10, '## #### ####'],
  ['49', 11, '### ########'],
  ['33', 9, '# ## ## ## ##'],
  ['34', 9, '### ### ###'],
  ['39', 10, '### ### ####'],
  ['31', 9, '# ########'],
  ['61', 9, '### ### ###'],
  ['65', 8, '#### ####'],
  ['81', 10, '##-####-####'],
  ['86', 11, '### #### ####'],
  ['91', 10, '##### #####'],
  ['55', 11, '## #####-####'],
  ['971', 9, '## ### ####'],
  ['353', 9, '## ### ####'],
  ['7', 10, '### ###-##-##'],
];

const fill = (random: Random, layout: string): string => layout.replace(/#/g, () => String(int(random, 10)));

/** E.164 (+ and up to 15 digits), the international layouts and the national ones. */
function phoneNumber(random: Random): string {
  const [code, length, layout] = pick(random, COUNTRIES);
  const national = String(between(random, 1, 9)) + digits(random, length - 1);
  return pick(random, [
    () => `+${code}${national}`,
    () => `+${code} ${fill(random, layout)}`,
    () => `tel:+${code}-${fill(random, layout).replace(/ /g, '-')}`,
    () => fill(random, pick(random, NATIONAL_LAYOUTS)),
    () => fill(random, pick(random, NATIONAL_LAYOUTS)),
  ])();
}

/** Versions as tools print them: semver with pre-release and build, four-part builds, calver, image tags. */
function version(random: Random): string {
  const [major, minor, patch] = [between(random, 0, 30), between(random, 0, 99), between(random, 0, 999)];
  const semver = `${major}.${minor}.${patch}`;
  return pick(random, [
    () => semver,
    () => `v${semver}`,
    () => `${semver}-${pick(random, ['alpha', 'beta', 'rc'])}.${between(random, 1, 20)}`,
    () => `${semver}+build.${between(random, 1, 99999)}`,
    () => `${semver}-rc.1+${new Date(someTime(random)).toISOString().slice(0, 10).replaceAll('-', '')}`,
    () =>
      `${between(random, 6, 10)}.${between(random, 0, 3)}.${between(random, 10000, 65535)}.${between(random, 0, 65535)}`,
    () => `${between(random, 100, 140)}.0.${between(random, 5000, 7000)}.${between(random, 0, 300)}`,
    () => `${between(random, 8, 25)}.0.${between(random, 1, 30)}+${between(random, 1, 40)}`,
    () => `1.8.0_${between(random, 100, 450)}-b${pad(between(random, 1, 20))}`,
    () => `${between(random, 4, 6)}.${between(random, 0, 19)}.0-${between(random, 1000, 1100)}-aws`,
    () => `${between(random, 2018, 2030)}.${pad(between(random, 1, 12))}.${between(random, 0, 9)}`,
    () =>
      `${pick(random, ['node', 'postgres', 'python'])}:${major}.${minor}.${patch}-alpine3.${between(random, 10, 21)}`,
  ])();
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** ISO 8601 (extended and basic, week and ordinal dates), the common written forms, log stamps, epoch numbers. */
function dateTime(random: Random): string {
  const ms = someTime(random);
  const at = new Date(ms);
  const [y, mo, d] = [at.getUTCFullYear(), at.getUTCMonth() + 1, at.getUTCDate()];
  const [h, mi, s] = [at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds()];
  const iso = at.toISOString();
  const date = iso.slice(0, 10);
  const time = `${pad(h)}:${pad(mi)}:${pad(s)}`;
  const micro = digits(random, 6);
  return pick(random, [
    () => date,
    () => iso,
    () => `${iso.slice(0, 19)}Z`,
    () => `${iso.slice(0, 19)}.${micro}+${pad(between(random, 0, 14))}:00`,
    () => `${date.replaceAll('-', '')}T${time.replaceAll(':', '')}Z`,
    () => `${y}-W${pad(between(random, 1, 52))}-${between(random, 1, 7)}`,
    () => `${y}-${pad(between(random, 1, 365), 3)}`,
    () => `${pad(d)}/${pad(mo)}/${y}`,
    () => `${mo}/${d}/${String(y).slice(2)}`,
    () => `${pad(d)}.${pad(mo)}.${y}`,
    () => `${y}/${pad(mo)}/${pad(d)}`,
    () => `${d} ${MONTHS[mo - 1] ?? ''} ${y}`,
    () => `${MONTHS[mo - 1] ?? ''} ${d}, ${y} ${(h % 12) + 1}:${pad(mi)} ${h < 12 ? 'AM' : 'PM'}`,
    () => `${DAYS[at.getUTCDay()] ?? ''}, ${pad(d)} ${MONTHS[mo - 1] ?? ''} ${y} ${time} GMT`,
    () => `${date} ${time}.${micro.slice(0, 3)}`,
    () => `${date} ${time},${micro.slice(0, 3)}`,
    () => `${date}T${time}`,
    () => `${y}${pad(mo)}${pad(d)}${pad(h)}${pad(mi)}${pad(s)}`,
    () => `${y}${pad(mo)}${pad(d)}${pad(h)}${pad(mi)}${pad(s)}${micro.slice(0, 3)}`,
    () => String(Math.floor(ms / 1000)),
    () => String(ms),
    () => `${ms}${micro.slice(0, 3)}`,
    () => `${ms}${micro}`,
  ])();
}

export interface TechnicalKind {
  name: string;
  make: (random: Random) => string;
  /**
   * Values of this kind that are, as written, exactly the shape of sensitive data (an S3 request id
   * whose 16 hex digits are all decimal is a 16-digit number): the guard reads them by their shape,
   * so they are counted apart.
   */
  sameShapeAsSensitive?: (value: string) => boolean;
}

/** The kinds, each with its generator; the UUIDs the workspace and the store make come first. */
export const TECHNICAL_KINDS: readonly TechnicalKind[] = [
  { name: 'UUID v4', make: uuidV4 },
  { name: 'UUID v7', make: (random) => uuidV7(random) },
  { name: 'UUID, any version and spelling', make: uuidAnySpelling },
  { name: 'ULID', make: ulid },
  { name: 'nanoid', make: nanoid },
  { name: 'AWS account id', make: awsAccountId },
  { name: 'AWS request or trace id', make: awsRequestId },
  { name: 'S3 request id', make: s3RequestId, sameShapeAsSensitive: (value) => /^\d{16}$/.test(value) },
  { name: 'ARN', make: arn },
  { name: 'IPv4 address', make: ipv4 },
  { name: 'IPv6 address', make: ipv6 },
  { name: 'phone number', make: phoneNumber },
  { name: 'version string', make: version },
  { name: 'date or time', make: dateTime },
];

/** Sentences of one, two or three values of a kind: prose, lists, log columns, JSON, a table row. */
const SENTENCES: readonly ((values: readonly string[]) => string)[] = [
  ([a]) => `The failing call was ${a ?? ''}; it fails on every retry since Monday.`,
  ([a]) => `Please look at ${a ?? ''} first.`,
  ([a, b]) => `Between ${a ?? ''} and ${b ?? ''} nothing was written to the database.`,
  ([a, b, c]) => `Affected: ${a ?? ''}, ${b ?? ''}, ${c ?? ''}.`,
  ([a, b]) => `${a ?? ''} ${b ?? ''} ERROR timeout after 30 s`,
  ([a]) => `{"id": "${a ?? ''}", "status": "failed"}`,
  ([a, b]) => `| ${a ?? ''} | ${b ?? ''} | open |`,
  ([a, b]) => `Old: ${a ?? ''} / new: ${b ?? ''} (see the runbook).`,
  ([a, b]) => `${a ?? ''}\n${b ?? ''}`,
];

/** One to three values of `kind` inside one of the sentences. */
export function inSentence(random: Random, kind: TechnicalKind): string {
  return pick(random, SENTENCES)([kind.make(random), kind.make(random), kind.make(random)]);
}

/** The UUID of issue 44: a crypto.randomUUID() the guard refused as a Visa card (4408-0548-4673-9). */
export const ISSUE_44_UUID = '25fe4408-0548-4673-9c2d-f971213af9d2';

/**
 * `values` cut into requests of `size` fields. A text that is a JSON object makes the guard lint
 * each text of its request on its own (src/proposal/guard/secretlint.ts), so those go in requests
 * of their own and the rest keep the one lint a request costs.
 */
export function requestsOf(values: readonly string[], size: number): string[][] {
  const json = values.filter((value) => /^\s*\{[\s\S]*\}\s*$/.test(value));
  const rest = values.filter((value) => !/^\s*\{[\s\S]*\}\s*$/.test(value));
  const cut = (list: readonly string[]) =>
    Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));
  return [...cut(rest), ...cut(json)];
}
