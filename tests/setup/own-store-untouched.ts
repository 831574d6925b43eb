/**
 * No test may write into the developer's own local stores: after the run, the checkout's
 * `.netlify/blobs-serve` (what `npm start` and `npm run inbox` use) holds exactly what it held
 * before. Tests that need a store start their own (tests/helpers/blobs.ts) or run `npm start` and
 * `npm run dev` in a copy of the checkout.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const store = fileURLToPath(new URL('../../.netlify/blobs-serve', import.meta.url));

/** Every file under the store with its size and modification time. */
function snapshot(): Map<string, string> {
  const files = new Map<string, string>();
  if (!existsSync(store)) return files;
  for (const entry of readdirSync(store, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const { size, mtimeMs } = statSync(path);
    files.set(relative(store, path), `${size}:${mtimeMs}`);
  }
  return files;
}

export default function setup(): () => void {
  const before = snapshot();
  return () => {
    const after = snapshot();
    const changed = [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f));
    if (changed.length > 0) {
      throw new Error(
        `Tests changed the developer's own local Blobs store (.netlify/blobs-serve): ${changed.slice(0, 10).join(', ')}. Use a store of the test's own.`,
      );
    }
  };
}
