/**
 * The confirmation email's two links: each token an HMAC of the request and the answer under CONSENT_SECRET
 * (a resend carries the same links), stored only as its hash. Valid only when both what the current secret
 * makes and what was stored, so a new secret revokes every old link.
 */
import { createHmac, hash, timingSafeEqual } from 'node:crypto';
import { CONSENT_LINK_HOURS } from '../../contract/consent.ts';
import { CONSENT_PAGES } from '../../contract/paths.ts';

export type LinkAnswer = 'confirm' | 'deny';
type LinkKey = { hash: string; expires_at: string };
export type ConsentLinks = { confirm: LinkKey; deny: LinkKey; used?: { answer: LinkAnswer; at: string } };

export const linkToken = (secret: string, id: string, answer: LinkAnswer) =>
  createHmac('sha256', secret).update(`consent-link\n${answer}\n${id}`).digest('base64url');

export function consentLinks(secret: string, id: string, since: string): ConsentLinks {
  const key = (answer: LinkAnswer): LinkKey => ({
    hash: hash('sha256', linkToken(secret, id, answer)),
    expires_at: new Date(Date.parse(since) + CONSENT_LINK_HOURS[answer] * 3_600_000).toISOString(),
  });
  return { confirm: key('confirm'), deny: key('deny') };
}

/** Whether the stored hashes are the current secret's (after a rotation the email re-keys before it sends). */
export const linksMatch = (secret: string, id: string, links: ConsentLinks) =>
  links.confirm.hash === hash('sha256', linkToken(secret, id, 'confirm'));

export function linkUrl(origin: string, id: string, answer: LinkAnswer, token: string): string {
  const url = new URL(CONSENT_PAGES[answer], origin);
  url.search = new URLSearchParams({ request: id, token }).toString();
  return url.href;
}

export type TokenCheck = 'valid' | 'used' | 'expired' | 'invalid';

/** In constant time; `used` and `expired` only for a genuine token. */
export function checkToken(
  secret: string | undefined,
  id: string,
  links: ConsentLinks | undefined,
  answer: LinkAnswer,
  token: string,
  now: Date,
): TokenCheck {
  if (links === undefined || secret === undefined) return 'invalid';
  const same = (a: string, b: string) => {
    const [x, y] = [Buffer.from(a), Buffer.from(b)];
    return x.length === y.length && timingSafeEqual(x, y);
  };
  if (!same(token, linkToken(secret, id, answer)) || !same(hash('sha256', token), links[answer].hash)) return 'invalid';
  // "Not me" after "Yes" withdraws the consent: only a repeat of the same answer is a reuse.
  if (links.used !== undefined && (links.used.answer === answer || answer === 'confirm')) return 'used';
  return Date.parse(links[answer].expires_at) <= now.getTime() ? 'expired' : 'valid';
}
