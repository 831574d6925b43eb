/**
 * Where `npm start` and `npm run dev` listen: loopback, so nobody else on the network reaches the
 * local site, its inner servers or its local Blobs store. HOST (e.g. `0.0.0.0` to try the site from
 * a phone on the same network) opens the site's own port, and in `npm run dev` netlify dev's ports.
 */
import { fileURLToPath } from 'node:url';

export const DEFAULT_HOST = '127.0.0.1';

/** The address the site's port listens on. */
export const listenHost = (): string => process.env['HOST']?.trim() || DEFAULT_HOST;

/** The preloads for netlify-cli: its listeners on an address, and its inner ports' body guard. */
const PRELOADS = ['./loopback-listen.mjs', './inner-body-guard.mjs'].map((file) =>
  fileURLToPath(new URL(file, import.meta.url)),
);

/**
 * Environment for the netlify-cli this process starts: its listeners that name no address listen
 * on `host` (./loopback-listen.mjs), and its own process guards its inner ports (./inner-body-guard.mjs).
 */
export function netlifyChildEnv(host: string): Record<string, string> {
  return {
    LISTEN_HOST: host,
    INNER_GUARD_PARENT_PID: String(process.pid),
    NODE_OPTIONS: [process.env['NODE_OPTIONS'] ?? '', ...PRELOADS.map((file) => `--import ${file}`)].join(' ').trim(),
  };
}
