/** How many messages the intake sends: the function enforces, the documents state, both from the environment. */
import { domainToASCII } from 'node:url';

export const SEND_LIMIT_SPECS = {
  /** Confirmation emails to one mailbox (countedMailbox below: spellings of one mailbox are one) in 24 h. */
  perAddress: { variable: 'CONFIRMATION_LIMIT_PER_ADDRESS', default: 3, windowHours: 24 },
  /**
   * Confirmation emails that one sending client (its network address, see CLIENT_COUNTING) gets sent
   * in 24 h, whatever addresses it names. 20 is 4% of the site's day: one client, however fast, stops
   * long before the site's limit, so the day's budget stays with the prospects that come after it;
   * 25 clients would be needed to spend it. An office behind one address still gets 20 confirmations a
   * day, more than any real team sends proposal requests; past it their requests are stored as usual.
   */
  perClient: { variable: 'CONFIRMATION_LIMIT_PER_CLIENT', default: 20, windowHours: 24 },
  /**
   * Confirmation emails to one recipient domain (countedDomain below) in 24 h, for the domains no
   * mailbox rule covers: a catch-all domain, or subdomain addressing on a custom domain hosted at
   * Fastmail, delivers any number of spellings to one inbox, and this caps them all. 10: more
   * proposal requests than one organisation sends one partner in a day, while a stranger's domain gets
   * no flood; past it requests are stored as usual. The shared webmail domains (SHARED_MAILBOX_DOMAINS)
   * are exempt: the per-address limit counts their mailboxes one by one.
   */
  perDomain: { variable: 'CONFIRMATION_LIMIT_PER_DOMAIN', default: 10, windowHours: 24 },
  /** Confirmation emails from the whole site in one UTC day; the first time it is reached, sales is alerted. */
  perDay: { variable: 'CONFIRMATION_LIMIT_PER_DAY', default: 500, windowHours: 24 },
  /** Individual notices to the sales team in one clock hour; past it, one digest for that hour. */
  noticesPerHour: { variable: 'NOTIFY_LIMIT_PER_HOUR', default: 20, windowHours: 1 },
} as const;

export type SendLimitName = keyof typeof SEND_LIMIT_SPECS;
export type SendLimits = Record<SendLimitName, number>;

export const SEND_LIMIT_RANGE = { min: 1, max: 1_000_000 } as const;

/** The limits in force, and the variables whose values were unusable (their defaults apply). */
export function sendLimitsFromEnv(read: (name: string) => string | undefined): {
  limits: SendLimits;
  invalid: string[];
} {
  const invalid: string[] = [];
  const limits = {} as SendLimits;
  for (const name of Object.keys(SEND_LIMIT_SPECS) as SendLimitName[]) {
    const spec = SEND_LIMIT_SPECS[name];
    const raw = read(spec.variable)?.trim();
    const value = raw === undefined || raw === '' ? spec.default : Number(raw);
    const usable = Number.isInteger(value) && value >= SEND_LIMIT_RANGE.min && value <= SEND_LIMIT_RANGE.max;
    if (!usable) invalid.push(spec.variable);
    limits[name] = usable ? value : spec.default;
  }
  return { limits, invalid };
}

/**
 * Providers that deliver several spellings of an address to one mailbox, each rule with its source.
 * Only rules a provider documents: other domains may treat dots, hyphens or subdomains as
 * significant, so they keep them (the per-domain limit caps what no rule covers).
 * - ignoresDots: dots in the name are not part of it.
 * - subdomainAddressing: `anything@name.<domain>` is `name@<domain>`; a hyphen in that label
 *   stands for an underscore of the name.
 * - hyphenKeyword: `base-keyword@<domain>` all reach the mailbox of `base` (counted as `base-`, not
 *   as the address `base@`, which may be someone else's).
 */
export const MAILBOX_PROVIDER_RULES: readonly MailboxRule[] = [
  {
    domains: ['gmail.com', 'googlemail.com'],
    mailboxDomain: 'gmail.com',
    ignoresDots: true,
    source:
      'Google, Gmail Help "Dots don\'t matter in Gmail addresses" (support.google.com/mail/answer/7436150); ' +
      "googlemail.com is the same service's other domain, and mail to either reaches the same inbox",
  },
  {
    // The Fastmail domains its help and blog name; its other domains (it offers many) and the custom
    // domains it hosts, where subdomain addressing works too, cannot be told without DNS: the
    // per-domain limit covers those.
    domains: ['fastmail.com', 'fastmail.fm'],
    subdomainAddressing: true,
    source:
      'Fastmail Help "Plus addressing and subdomain addressing" (fastmail.help/hc/en-us/articles/360060591053): ' +
      'whateveryoulike@username.domain.tld reaches username@domain.tld, on by default, for Fastmail domains ' +
      'and personal domains alike; Fastmail blog "Two address resolving additions" (2008): a hyphen in the ' +
      'subdomain stands for an underscore in the username',
  },
  {
    domains: ['yahoo.com'],
    hyphenKeyword: true,
    source:
      'Yahoo Help, AddressGuard "Using Disposable Addresses": addresses made of the base name chosen at ' +
      "setup and a keyword are delivered to the one inbox; Yahoo's application US 2006/0041621 (disposable " +
      'email address): the base name and keyword are joined by a dash, a character permanent Yahoo IDs lack',
  },
];

/** One provider's documented spellings (MAILBOX_PROVIDER_RULES). */
export interface MailboxRule {
  domains: readonly string[];
  /** The domain its mailboxes are counted under, when it has several. */
  mailboxDomain?: string;
  ignoresDots?: boolean;
  subdomainAddressing?: boolean;
  hyphenKeyword?: boolean;
  source: string;
}

/**
 * Domains whose addresses are each one person's account at a large provider: exempt from the
 * per-domain limit, which would otherwise stop the provider's other users, while the per-address limit
 * (with the rules above) already counts each mailbox. A domain not listed is capped: the limit then
 * errs towards fewer emails, never more.
 */
export const SHARED_MAILBOX_DOMAINS: readonly string[] = [
  'gmail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'yahoo.com',
  'ymail.com',
  'aol.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'gmx.net',
  'gmx.de',
  'web.de',
  'zoho.com',
  'yandex.ru',
  'mail.ru',
  'qq.com',
  '163.com',
  ...MAILBOX_PROVIDER_RULES.flatMap((r) => r.domains),
];

/**
 * IPv6 clients are counted by their /48. A subscriber is handed a whole prefix and picks any address
 * in it: a home gets a /56 (256 /64s) and a business or a free tunnel broker's user a /48 (65,536),
 * the sizes RIPE-690 recommends to providers. Counted by /64, one /56 was 256 clients and 25 of them
 * spent the site's day; counted by the /48, one subscriber is one client whatever it holds. The cost:
 * subscribers a provider numbers from one /48 share a client's limit, as people behind one IPv4
 * address (an office, a carrier's NAT) already do; 20 a day is still more than they send.
 */
export const IPV6_CLIENT_PREFIX_BITS = 48;

/** What the per-address limit counts, as the contract publishes it (data_handling.counting). */
export const MAILBOX_COUNTING =
  'One mailbox, however it is spelled: the address in lower case, its domain in ASCII (IDNA), without a ' +
  '+tag, for Gmail (gmail.com and googlemail.com alike) without dots in the name, for Fastmail any address ' +
  'at a subdomain named after a mailbox (Fastmail subdomain addressing) as that mailbox, and for Yahoo ' +
  'disposable addresses (a base name, a dash and a keyword) one mailbox per base name. This form is used for ' +
  'counting only; email goes to the address as it was sent.';

/** What the per-client limit counts (data_handling.counting). */
export const CLIENT_COUNTING =
  `One sending client: its network address as the host reports it (an IPv6 client by its /${IPV6_CLIENT_PREFIX_BITS}, ` +
  'the largest prefix one subscriber is given), kept only as a truncated keyed hash (HMAC-SHA-256).';

/** What the per-domain limit counts (data_handling.counting). */
export const DOMAIN_COUNTING =
  "One recipient domain: the mailbox's domain without its subdomains (example.com for an address at sales.example.com; " +
  'example.co.uk under a two-letter country code), except the shared domains of large mail providers ' +
  '(gmail.com, outlook.com, yahoo.com and the like), whose mailboxes the per-address limit counts one by one.';

/**
 * The mailbox a limit counts, never an address to send to: Ann+1@Example.com, ann@example.com,
 * j.doe@gmail.com, JDoe@googlemail.com, cv@jdoe.fastmail.com and jdoe-shop@yahoo.com each count as one
 * mailbox with their other spellings.
 */
export function countedMailbox(email: string): string {
  const address = email.trim().normalize('NFKC').toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 0) return address;
  const domainPart = address.slice(at + 1);
  // An unconvertible domain ('' from domainToASCII) is counted as it was written.
  let domain = domainToASCII(domainPart) || domainPart;
  // A leading + is the name itself, not a tag.
  let name = address.slice(0, at).replace(/^([^+]+)\+.*$/s, '$1');
  const base = MAILBOX_PROVIDER_RULES.filter((r) => r.subdomainAddressing)
    .flatMap((r) => r.domains)
    .find((d) => domain.endsWith(`.${d}`));
  if (base !== undefined) {
    // The label right before the provider's domain names the mailbox.
    name = (
      domain
        .slice(0, -base.length - 1)
        .split('.')
        .at(-1) ?? name
    ).replaceAll('-', '_');
    domain = base;
  }
  const rule = MAILBOX_PROVIDER_RULES.find((r) => r.domains.includes(domain));
  if (rule?.ignoresDots) name = name.replaceAll('.', '');
  if (rule?.hyphenKeyword && name.indexOf('-') > 0) name = name.slice(0, name.indexOf('-') + 1);
  return `${name}@${rule?.mailboxDomain ?? domain}`;
}

/**
 * Second labels under which a country's registry gives out domains (co.uk, com.au, ne.jp, gouv.fr):
 * under a two-letter top-level domain the counted domain keeps a third label after one of these.
 * Without the public suffix list this is an approximation: a registry missing here counts the
 * domains under it as one (fewer emails, never more); a domain that only looks like one is split.
 */
const COUNTRY_REGISTRY_LABELS = new Set(
  'ac ad asn biz co com ed edu firm gen go gob gouv gov govt gr id info lg ltd me mil ne net nhs nom or org plc sch web'.split(
    ' ',
  ),
);

/**
 * The domain the per-domain limit counts for an address (subdomains dropped, DOMAIN_COUNTING), or
 * undefined for a shared mail provider's domain, which is exempt.
 */
export function countedDomain(email: string): string | undefined {
  const mailbox = countedMailbox(email);
  const domain = mailbox.slice(mailbox.lastIndexOf('@') + 1);
  if (SHARED_MAILBOX_DOMAINS.includes(domain)) return undefined;
  const labels = domain.split('.');
  const [second = '', top = ''] = labels.slice(-2);
  const kept = top.length === 2 && COUNTRY_REGISTRY_LABELS.has(second) ? 3 : 2;
  return labels.slice(-kept).join('.');
}
