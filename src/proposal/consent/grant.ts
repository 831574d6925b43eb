/**
 * A consent asked before anything is stored (MCP URL elicitation): the person confirms a draft on the
 * partner's own page, /confirm/yes, with a link only their client was handed. The grant holds the
 * draft's digest, never the draft, and the token's hash; it lives as long as the round trip's state.
 */
import { createHmac } from 'node:crypto';
import type { ProposalsStore, Version } from '../store/blobs.ts';
import { timeOrderedId } from '../store/time-ordered-id.ts';
import { grantKey, grantKeyPointer } from '../store/grants.ts';
import { consentLinks, linkToken, type ConsentLinks } from '../submit/consent-links.ts';
import { isObject } from '../submit/record.ts';

export interface Grant {
  id: string;
  draft: string;
  key: string;
  version: string;
  created_at: string;
  links: ConsentLinks;
  confirmed_at?: string;
  /** The key's pointer to this grant (grantForKey), deleted with it (../store/grants.ts). */
  pointer?: string;
}

/** Stores a new grant; its id and the token of its one link ("Yes, this was me"). */
export async function createGrant(
  store: ProposalsStore,
  secret: string,
  draft: Pick<Grant, 'draft' | 'key' | 'version'>,
  now: Date,
  pointer?: string,
): Promise<{ id: string; token: string }> {
  const id = timeOrderedId(now);
  const created = now.toISOString();
  const links = consentLinks(secret, id, created);
  const grant: Grant = { id, ...draft, created_at: created, links, ...(pointer !== undefined && { pointer }) };
  await store.writeIf(grantKey(id), grant, { ifNew: true });
  return { id, token: linkToken(secret, id, 'confirm') };
}

export async function readGrant(store: ProposalsStore, id: string): Promise<{ grant: Grant; version: Version } | null> {
  const found = await store.read(grantKey(id));
  if (found === null || !isObject(found.value) || !isObject(found.value['links'])) return null;
  return { grant: found.value as unknown as Grant, version: found.version };
}

/** Marks the grant confirmed and its link used: false when another write came first. */
export async function confirmGrant(store: ProposalsStore, grant: Grant, version: Version, at: string) {
  const next: Grant = { ...grant, confirmed_at: at, links: { ...grant.links, used: { answer: 'confirm', at } } };
  return (await store.writeIf(grantKey(grant.id), next, { ifVersion: version })) !== null;
}

/**
 * The grant of one idempotency key, found or stored: a 2025-era retry carries no requestState, only
 * the same call. A pointer under a name derived from the key (HMAC, so the key is not readable from
 * the store's names) leads to the grant; of two first calls at once, the pointer written first wins.
 */
export async function grantForKey(
  store: ProposalsStore,
  secret: string,
  draft: Pick<Grant, 'draft' | 'key' | 'version'>,
  now: Date,
): Promise<Grant> {
  const pointer = grantKeyPointer(createHmac('sha256', secret).update(`grant-key\n${draft.key}`).digest('hex'));
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const found = await store.read(pointer);
    const id = isObject(found?.value) ? found.value['id'] : undefined;
    const grant = typeof id === 'string' ? (await readGrant(store, id))?.grant : undefined;
    if (grant !== undefined) return grant;
    const created = await createGrant(store, secret, draft, now, pointer);
    if ((await store.writeIf(pointer, { id: created.id }, { ifNew: true })) !== null)
      return (await readGrant(store, created.id))!.grant;
  }
  throw new Error('grant pointer unreadable');
}
