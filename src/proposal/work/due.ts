/**
 * The due listing: `due/<ISO time>/<kind>/<id>`, written before the record owes that work. Names sort by
 * time, so a run lists only the head that is due; a run deletes an entry that outlived its need.
 */
import type { ProposalsStore } from '../store/blobs.ts';

const PREFIX = 'due/';

export const dueKey = (at: string, kind: string, id: string) => `${PREFIX}${at}/${kind}/${id}`;

export const markDue = (store: ProposalsStore, at: string, kind: string, id: string) =>
  store.writeIf(dueKey(at, kind, id), { at }, { ifNew: true });

export const unmarkDue = (store: ProposalsStore, at: string, kind: string, id: string) =>
  store.remove(dueKey(at, kind, id));

export type DueEntry = { key: string; at: string; kind: string; id: string };

/** Entries due at `now`, oldest first, at most `limit`. */
export async function listDue(store: ProposalsStore, now: Date, limit: number): Promise<DueEntry[]> {
  const cutoff = `${PREFIX}${now.toISOString()}`;
  let listed = 0;
  const keys = await store.listWhile(PREFIX, (key) => key <= cutoff && listed++ < limit);
  return keys.flatMap((key) => {
    const [at, kind, id] = key.slice(PREFIX.length).split('/');
    return at && kind && id ? [{ key, at, kind, id }] : [];
  });
}
