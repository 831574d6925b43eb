/** How many messages the intake sends: the function enforces, the documents state, both from the environment. */

export const SEND_LIMIT_SPECS = {
  /** Confirmation emails to one address (compared case-insensitively, without a +tag) in 24 h. */
  perAddress: { variable: 'CONFIRMATION_LIMIT_PER_ADDRESS', default: 3, windowHours: 24 },
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

/** The address a limit counts: lower case, without a `+tag`, so Ann+1@Example.com and ann@example.com share one. */
export const limitAddress = (email: string): string =>
  email
    .trim()
    .toLowerCase()
    .replace(/^([^+]+)\+.*(@[^@]*)$/s, '$1$2');
