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
import { ProposalsStore } from '../../src/proposal/store/blobs.ts';

export interface TestBlobs {
  directory: string;
  siteID: string;
  token: string;
  url: string;
  /** A proposals store with a fresh name, so each test counts only its own blobs. */
  freshStore(): ProposalsStore;
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
    freshStore: () => new ProposalsStore({ name: `proposals-test-${++stores}` }),
    stop: async () => {
      await server.stop();
      if (options.directory === undefined) await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * The same blobs as `store`, through the Blobs client itself: what a test arranges or inspects
 * directly (a damaged entry, a listing), bypassing the storage module under test.
 */
export function rawStore(store: ProposalsStore): Store {
  return getStore({ name: store.name, consistency: 'strong' });
}

/** Every JSON blob under `prefix`, read back through the Blobs client. */
export async function readAll(store: ProposalsStore, prefix: string): Promise<unknown[]> {
  const raw = rawStore(store);
  const { blobs } = await raw.list({ prefix });
  return Promise.all(blobs.map(async ({ key }): Promise<unknown> => raw.get(key, { type: 'json' })));
}
