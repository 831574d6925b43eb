/**
 * The local Blobs server (patched, see patches/) keeps the promises production makes: a
 * conditional write is checked and done as one step, and every read carries the ETag that a
 * later If-Match needs. The submit pipeline's exactly-once guarantee rests on both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawStore, startBlobs, type TestBlobs } from '../helpers/blobs.ts';

let blobs: TestBlobs;
beforeAll(async () => {
  blobs = await startBlobs();
});
afterAll(() => blobs.stop());

describe('local Blobs server', () => {
  it('lets exactly one of 50 simultaneous create-if-new writes win', async () => {
    const store = rawStore(blobs.freshStore());
    const writes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.setJSON('key', { writer: i }, { onlyIfNew: true })),
    );
    const winners = writes.filter((w) => w.modified);
    expect(winners).toHaveLength(1);
    const stored = (await store.get('key', { type: 'json' })) as { writer: number };
    expect(writes[stored.writer]?.modified).toBe(true);
  });

  it('lets exactly one of 50 simultaneous writes with the same If-Match win', async () => {
    const store = rawStore(blobs.freshStore());
    await store.setJSON('key', { writer: -1 });
    const read = await store.getWithMetadata('key', { type: 'json' });
    expect(read?.etag).toMatch(/^".+"$/);
    const writes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => store.setJSON('key', { writer: i }, { onlyIfMatch: read!.etag! })),
    );
    expect(writes.filter((w) => w.modified)).toHaveLength(1);
  });

  it('gives a new ETag to every different content, even within one millisecond', async () => {
    const store = rawStore(blobs.freshStore());
    const first = await store.setJSON('key', { n: 1 });
    const second = await store.setJSON('key', { n: 2 });
    expect(first.etag).not.toBe(second.etag);
    const read = await store.getWithMetadata('key', { type: 'json' });
    expect(read?.etag).toBe(second.etag);
    expect((await store.setJSON('key', { n: 3 }, { onlyIfMatch: first.etag! })).modified).toBe(false);
  });
});
