/**
 * A real local Netlify Blobs server on a temp dir, wired in with setEnvironmentContext as
 * tests/helpers/blobs.ts does, for the benchmarks that store requests. It runs in the
 * benchmark's own process, so every figure includes the server's work on the same event loop.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function startLocalBlobs(name: string): Promise<{ stop: () => Promise<void> }> {
  const { setEnvironmentContext } = await import('@netlify/blobs');
  const { BlobsServer } = await import('@netlify/blobs/server');
  const directory = await mkdtemp(join(tmpdir(), `kestrel-bench-${name}-`));
  const token = randomUUID();
  const server = new BlobsServer({ directory, token });
  const { port } = await server.start();
  const url = `http://127.0.0.1:${port}`;
  setEnvironmentContext({ siteID: `bench-site-${randomUUID()}`, token, edgeURL: url, uncachedEdgeURL: url });
  return {
    stop: async () => {
      await server.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
