/**
 * A consent asked before anything is stored (MCP elicitation): one grant per idempotency key, found
 * through `grant-keys/<HMAC of the key>` (the key is never stored), made only for a draft that passed
 * validation and the guard. It holds the draft's digest (never the draft), the page's summary, the
 * link's hashes and the answer; the scheduled run deletes it with its pointer (store/expiring.ts).
 */
import { createHmac } from 'node:crypto';
import { isObject, StoreUnavailable, type ProposalsStore, type Version } from '../store/blobs.ts';
import { GRANT_KEYS_PREFIX, GRANTS_PREFIX } from '../store/expiring.ts';
import { timeOrderedId } from '../store/ids.ts';
import { consentLinks, type ConsentLinks } from '../notify/links.ts';

export interface Grant {
  id: string;
  /** sha-256 of the draft's canonical JSON, and the consent version it was asked for. */
  draft: string;
  version: string;
  created_at: string;
  links: ConsentLinks;
  /** What the page shows: the company and the site's names of the choices. */
  summary: { company: string; choices: string[] };
  pointer: string;
  confirmed_at?: string;
  declined_at?: string;
}

type Found = { grant: Grant; version: Version };

const isGrant = (value: unknown): value is Grant =>
  isObject(value) && typeof value['id'] === 'string' && typeof value['draft'] === 'string' && isObject(value['links']);

export async function readGrant(store: ProposalsStore, id: string): Promise<Found | null> {
  const found = await store.read(`${GRANTS_PREFIX}${id}`);
  return found !== null && isGrant(found.value) ? { grant: found.value, version: found.version } : null;
}

const pointerOf = (secret: string, key: string) =>
  `${GRANT_KEYS_PREFIX}${createHmac('sha256', secret).update(`grant-key\n${key}`).digest('hex')}`;

export async function keyGrant(store: ProposalsStore, secret: string, key: string): Promise<Grant | undefined> {
  const named = (await store.read(pointerOf(secret, key)))?.value;
  return isObject(named) && typeof named['id'] === 'string' ? (await readGrant(store, named['id']))?.grant : undefined;
}

/** The key's grant, found or made: of two first calls at once, the pointer written first wins. */
export async function grantForKey(
  store: ProposalsStore,
  secret: string,
  key: string,
  draft: Pick<Grant, 'draft' | 'version' | 'summary'>,
  now: Date,
): Promise<Grant> {
  const pointer = pointerOf(secret, key);
  const at = now.toISOString();
  for (let attempt = 0; attempt < 2; attempt++) {
    const found = await keyGrant(store, secret, key);
    if (found !== undefined) return found;
    const id = timeOrderedId(now);
    const grant: Grant = { id, ...draft, created_at: at, links: consentLinks(secret, id, at), pointer };
    await store.writeIf(`${GRANTS_PREFIX}${id}`, grant, { ifNew: true });
    if ((await store.writeIf(pointer, { id }, { ifNew: true })) !== null) return grant;
  }
  throw new StoreUnavailable('grant', 'contended');
}

/** Records the person's answer once: false when another write came first. */
export async function answerGrant(store: ProposalsStore, found: Found, answer: 'confirmed' | 'declined', at: string) {
  const { grant, version } = found;
  const next: Grant =
    answer === 'confirmed'
      ? { ...grant, confirmed_at: at, links: { ...grant.links, used: { answer: 'confirm', at } } }
      : { ...grant, declined_at: at };
  return (await store.writeIf(`${GRANTS_PREFIX}${grant.id}`, next, { ifVersion: version })) !== null;
}
