/**
 * A real Netlify Blobs server on loopback for tests: the local BlobsServer on a temp
 * directory, wired in through setEnvironmentContext so getStore() inside the code uses it.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getStore, setEnvironmentContext, type Store } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';

export interface TestBlobs {
  directory: string;
  siteID: string;
  token: string;
  url: string;
  /** A store with a fresh name, so each test counts only its own blobs. */
  freshStore(): Store;
  stop(): Promise<void>;
}

export async function startBlobs(options: { directory?: string; siteID?: string } = {}): Promise<TestBlobs> {
  const directory = options.directory ?? (await mkdtemp(join(tmpdir(), 'blobs-')));
  const siteID = options.siteID ?? `test-site-${randomUUID()}`;
  const token = randomUUID();
  const server = new BlobsServer({ directory, token });
  const { port } = await server.start();
  const url = `http://127.0.0.1:${port}`;
  setEnvironmentContext({ siteID, token, edgeURL: url, uncachedEdgeURL: url });
  let stores = 0;
  return {
    directory,
    siteID,
    token,
    url,
    freshStore: () => getStore({ name: `proposals-test-${++stores}`, consistency: 'strong' }),
    stop: async () => {
      await server.stop();
      if (options.directory === undefined) await rm(directory, { recursive: true, force: true });
    },
  };
}

/** Every JSON blob under `prefix`, read back through the store. */
export async function readAll(store: Store, prefix: string): Promise<unknown[]> {
  const { blobs } = await store.list({ prefix });
  return Promise.all(blobs.map(async ({ key }): Promise<unknown> => store.get(key, { type: 'json' })));
}
