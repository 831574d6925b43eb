/**
 * Nonces of verified signatures, each remembered until its signature expires, so the same signed
 * request sent again is recorded as a replay. Per instance, in memory: a replay that reaches another
 * instance (or this one after a cold start) is not caught. Good enough for a record that grants
 * nothing: the signature's short window (profile.ts) bounds the rest.
 */
import { AGENT_IDENTITY_LIMITS } from './profile.ts';

export class NonceLog {
  readonly #until = new Map<string, number>();

  /** True if this nonce was seen before and has not expired; otherwise remembers it until `untilMs`. */
  replayed(key: string, untilMs: number, nowMs: number): boolean {
    const seenUntil = this.#until.get(key);
    if (seenUntil !== undefined && seenUntil > nowMs) return true;
    this.#until.delete(key);
    this.#until.set(key, untilMs);
    // Insertion order is roughly expiry order: the oldest go first, expired or past the bound.
    for (const [oldest, until] of this.#until) {
      if (until > nowMs && this.#until.size <= AGENT_IDENTITY_LIMITS.maxRememberedNonces) break;
      this.#until.delete(oldest);
    }
    return false;
  }
}
