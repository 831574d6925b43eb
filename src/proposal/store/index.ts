/**
 * The proposals store: the only way into Netlify Blobs for the submit pipeline, the sweep and
 * the inbox script. It offers the pipeline's own operations with its own types (claim a key,
 * create and update a request given its version, the open index, the sweep lock, retention,
 * event counters); nothing outside this folder sees a Blobs type or an ETag. Every call is
 * bounded by STORE_LIMITS and every failure is one error, StoreUnavailable.
 */
import { PROPOSALS_STORE } from '../submit/record.ts';
import { BlobStore, type BlobsLocation } from './blobs.ts';

export type { BlobsLocation } from './blobs.ts';
export { STORE_LIMITS } from './limits.ts';
export { StoreUnavailable, type StoreFailure } from './store-unavailable.ts';

/** The opened proposals store; pass it to the operations of this folder. */
export type ProposalsStore = BlobStore;

/**
 * The site's proposals store: from the invocation's Blobs context by default, or at `location`
 * (the inbox script on a deployed site). `name` other than the default: tests, each their own.
 */
export function openProposalsStore(options: { name?: string; location?: BlobsLocation } = {}): ProposalsStore {
  return new BlobStore(options.name ?? PROPOSALS_STORE, options.location);
}
