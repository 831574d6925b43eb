/**
 * Blobs that time alone deletes, named so their names sort by when: consent grants
 * (`grants/<time-ordered id>`, each with its key's pointer) and the nonces of signed requests
 * (`nonces/<expiry>/<hash>`). The scheduled run deletes each kind from the head of its listing.
 */
import { isObject, type ProposalsStore } from './blobs.ts';
import { idTime } from './ids.ts';

export const GRANTS_PREFIX = 'grants/';
export const GRANT_KEYS_PREFIX = 'grant-keys/';
export const NONCES_PREFIX = 'nonces/';

/** Keys under `prefix` whose time (read off the name) is before `cutoff`, at most `limit`, from the head. */
export function expiredRecords(
  store: ProposalsStore,
  prefix: string,
  cutoff: number,
  limit: number,
  timeOf: (name: string) => number | undefined = idTime,
) {
  let listed = 0;
  return store.listWhile(prefix, (key) => listed++ < limit && (timeOf(key.slice(prefix.length)) ?? Infinity) < cutoff);
}

/** Grants older than `keepMs`, each with the pointer it names; nonces whose signature expired. */
export async function deleteExpiring(store: ProposalsStore, now: number, grantKeepMs: number, limit: number) {
  const grants = await expiredRecords(store, GRANTS_PREFIX, now - grantKeepMs, limit);
  for (const key of grants) {
    const value = (await store.read(key))?.value;
    if (isObject(value) && typeof value['pointer'] === 'string') await store.remove(value['pointer']);
    await store.remove(key);
  }
  const nonces = await expiredRecords(store, NONCES_PREFIX, now, limit, (name) => Date.parse(name.split('/')[0] ?? ''));
  await Promise.all(nonces.map((key) => store.remove(key)));
  return { grants_deleted: grants.length, nonces_deleted: nonces.length };
}
