/**
 * Where consent grants live (../consent/grant.ts): `grants/<time-ordered id>`, and per idempotency key
 * a pointer `grant-keys/<HMAC of the key>` naming its grant. A grant serves one round trip (its link
 * expires with the key), so the sweep deletes grants past GRANT_KEEP_HOURS from the head of the
 * listing, each with its pointer: the work grows with what is due, not with what is stored.
 */
import { CONSENT_LINK_HOURS } from '../../contract/consent.ts';
import type { ProposalsStore } from './blobs.ts';
import { RETENTION_BATCH } from './retention.ts';
import { idTime } from './time-ordered-id.ts';

export const GRANTS_PREFIX = 'grants/';
export const GRANT_KEYS_PREFIX = 'grant-keys/';
export const grantKey = (id: string) => `${GRANTS_PREFIX}${id}`;
export const grantKeyPointer = (keyHmac: string) => `${GRANT_KEYS_PREFIX}${keyHmac}`;

/** A grant's link lives a day, and its idempotency key a day: kept one day more than both. */
export const GRANT_KEEP_HOURS = CONSENT_LINK_HOURS.confirm + 24;

/** Deletes grants older than GRANT_KEEP_HOURS, and the key pointer each names; returns how many grants. */
export async function deleteExpiredGrants(store: ProposalsStore, now: Date): Promise<number> {
  const cutoff = now.getTime() - GRANT_KEEP_HOURS * 3_600_000;
  let listed = 0;
  const keys = await store.listWhile(GRANTS_PREFIX, (key) => {
    const at = idTime(key.slice(GRANTS_PREFIX.length));
    return at !== undefined && at < cutoff && listed++ < RETENTION_BATCH;
  });
  for (const key of keys) {
    const found = await store.read(key);
    const pointer = (found?.value as { pointer?: unknown } | undefined)?.pointer;
    if (typeof pointer === 'string' && pointer.startsWith(GRANT_KEYS_PREFIX)) await store.remove(pointer);
    await store.remove(key);
  }
  return keys.length;
}
