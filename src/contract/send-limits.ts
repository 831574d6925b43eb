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
 * Only rules a provider documents: other domains may treat dots as significant, so they keep them.
 */
export const MAILBOX_PROVIDER_RULES = [
  {
    domains: ['gmail.com', 'googlemail.com'],
    mailboxDomain: 'gmail.com',
    ignoresDots: true,
    source:
      'Google, Gmail Help "Dots don\'t matter in Gmail addresses" (support.google.com/mail/answer/7436150); ' +
      "googlemail.com is the same service's other domain, and mail to either reaches the same inbox",
  },
] as const;

/** What the per-address limit counts, as the contract publishes it (data_handling.counting). */
export const MAILBOX_COUNTING =
  'One mailbox, however it is spelled: the address in lower case, its domain in ASCII (IDNA), without a ' +
  '+tag, and for Gmail (gmail.com and googlemail.com alike) without dots in the name. This form is used for ' +
  'counting only; email goes to the address as it was sent.';

/** What the per-client limit counts (data_handling.counting). */
export const CLIENT_COUNTING =
  'One sending client: its network address as the host reports it (an IPv6 client by its /64 network), ' +
  'kept only as a truncated hash.';

/**
 * The mailbox a limit counts, never an address to send to: Ann+1@Example.com, ann@example.com,
 * j.doe@gmail.com and JDoe@googlemail.com each count as one mailbox with their other spellings.
 */
export function countedMailbox(email: string): string {
  const address = email.trim().normalize('NFKC').toLowerCase();
  const at = address.lastIndexOf('@');
  if (at < 0) return address;
  const domainPart = address.slice(at + 1);
  // An unconvertible domain ('' from domainToASCII) is counted as it was written.
  const domain = domainToASCII(domainPart) || domainPart;
  // A leading + is the name itself, not a tag.
  let name = address.slice(0, at).replace(/^([^+]+)\+.*$/s, '$1');
  const rule = MAILBOX_PROVIDER_RULES.find((r) => (r.domains as readonly string[]).includes(domain));
  if (rule?.ignoresDots) name = name.replaceAll('.', '');
  return `${name}@${rule?.mailboxDomain ?? domain}`;
}
