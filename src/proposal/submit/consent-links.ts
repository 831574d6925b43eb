/**
 * The two links of the confirmation email, "Yes, this was me" and "Not me": each a token bound to
 * the request and its answer, derived from the deployment's CONSENT_SECRET (so a resend after a
 * restart or by the sweep carries the same links) and stored only as its hash. Single use: the
 * record notes the answer once given. They expire with the key: a day for "Yes", 30 days for "Not me".
 */
import { createHmac, hash, timingSafeEqual } from 'node:crypto';
import { CONSENT_LINK_HOURS } from '../../contract/consent.ts';
import { CONSENT_PAGES } from '../../contract/paths.ts';

export const CONSENT_SECRET_VARIABLE = 'CONSENT_SECRET';
/** Shorter secrets are refused (config_invalid): a token is only as unguessable as its key. */
export const MIN_CONSENT_SECRET_LENGTH = 32;

/** CONSENT_SECRET when it is long enough; `invalid` when set but too short (never used then). */
export function consentSecretFromEnv(readEnv: (name: string) => string | undefined) {
  const secret = readEnv(CONSENT_SECRET_VARIABLE)?.trim();
  if (secret === undefined || secret === '') return {};
  return secret.length >= MIN_CONSENT_SECRET_LENGTH ? { secret } : { invalid: true };
}

export const LINK_ANSWERS = ['confirm', 'deny'] as const;
export type LinkAnswer = (typeof LINK_ANSWERS)[number];

export interface LinkKey {
  /** sha-256 of the token, hex: the token itself is never stored. */
  hash: string;
  expires_at: string;
}

export interface ConsentLinks {
  confirm: LinkKey;
  deny: LinkKey;
  /** Set when a link was used: the answer and when. */
  used?: { answer: LinkAnswer; at: string };
}

/** The token of one answer for one request: HMAC-SHA-256 under the deployment's secret, base64url. */
export function linkToken(secret: string, requestId: string, answer: LinkAnswer): string {
  return createHmac('sha256', secret).update(`consent-link\n${answer}\n${requestId}`).digest('base64url');
}

const tokenHash = (token: string) => hash('sha256', token);

export function consentLinks(secret: string, requestId: string, receivedAt: string): ConsentLinks {
  const key = (answer: LinkAnswer): LinkKey => ({
    hash: tokenHash(linkToken(secret, requestId, answer)),
    expires_at: new Date(Date.parse(receivedAt) + CONSENT_LINK_HOURS[answer] * 3_600_000).toISOString(),
  });
  return { confirm: key('confirm'), deny: key('deny') };
}

/** The answer's page on the site (`origin`: any URL of it) with the request and its token in the query. */
export function linkUrl(origin: string, requestId: string, answer: LinkAnswer, token: string): string {
  const url = new URL(CONSENT_PAGES[answer], origin);
  url.search = new URLSearchParams({ request: requestId, token }).toString();
  return url.href;
}

export type TokenCheck = 'valid' | 'used' | 'expired' | 'invalid';

/** Checks the token against the stored hash in constant time; `used` and `expired` only for a genuine token. */
export function checkToken(links: ConsentLinks | undefined, answer: LinkAnswer, token: string, now: Date): TokenCheck {
  if (links === undefined) return 'invalid';
  const expected = Buffer.from(links[answer].hash, 'hex');
  const given = Buffer.from(tokenHash(token), 'hex');
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
  if (links.used !== undefined) return 'used';
  return Date.parse(links[answer].expires_at) <= now.getTime() ? 'expired' : 'valid';
}
