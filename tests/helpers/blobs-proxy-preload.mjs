// @ts-check
/**
 * Loaded with NODE_OPTIONS=--import into `npm start` and everything it runs, for one test only:
 * netlify-cli starts its own Blobs server on a random port and hands functions its address, with
 * no flag, variable or setting to change it (dist/lib/blobs/blobs.js, initializeBlobsServer). So
 * each BlobsServer started in these processes asks the test (BLOBS_FAULT_CONTROL_URL) for a fault
 * proxy in front of it, and reports the proxy's port as its own.
 */
import { BlobsServer } from '@netlify/blobs/server';

const control = process.env['BLOBS_FAULT_CONTROL_URL'];
if (control) {
  const { start } = Object.getOwnPropertyDescriptors(BlobsServer.prototype);
  const original = /** @type {(this: BlobsServer) => ReturnType<BlobsServer['start']>} */ (start?.value);
  BlobsServer.prototype.start = async function startBehindProxy() {
    const started = await original.call(this);
    const res = await fetch(`${control}?target=${encodeURIComponent(`http://127.0.0.1:${started.port}`)}`);
    const { port } = /** @type {{ port: number }} */ (await res.json());
    return { ...started, address: `http://127.0.0.1:${port}`, port };
  };
}
