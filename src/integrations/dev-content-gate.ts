/**
 * Keeps the dev preview's answers equal to the content on disk. Astro's content layer reloads a
 * file when its watcher reports a change; an editor's save can arrive as several events, and a read
 * between them sees half a file, after which the store keeps that stale state. Module-level results
 * built from the content (the site model, the function's knowledge, getStaticPaths props) outlive
 * the reload too. So before a request is answered, the gate compares the content folder with what
 * the content layer last read (paths, sizes, modification times) and, when they differ, has the
 * content layer read every file again and drops every module that depends on the content, so the
 * request is rendered from the files as they are now: changed, broken or fixed.
 */
import { globSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { isRunnableDevEnvironment, type ViteDevServer } from 'vite';
import { LOAD_STARTED } from '../lib/content/loader.ts';

/** Astro reloads its content config after every markdown change and skips a refresh meanwhile: a few tens of milliseconds. */
const RELOAD_RETRY_MS = 20;
const RELOAD_TIMEOUT_MS = 10_000;

/** The module Astro's content runtime reads the content store from. */
const DATA_STORE_MODULE = '\0astro:data-layer-content';

/** What the folder holds now: a change to any file, a new file or a removed one changes it. */
function contentFingerprint(dir: string): string {
  return globSync('**/*', { cwd: dir, withFileTypes: false })
    .sort()
    .map((path) => {
      try {
        const stat = statSync(join(dir, path));
        return stat.isFile() ? `${path}\t${stat.size}\t${stat.mtimeMs}` : '';
      } catch {
        return `${path}\tgone`; // removed between the listing and the stat
      }
    })
    .join('\n');
}

/** Drops every module that imports the content store, directly or not, so the next import evaluates it afresh. */
function dropContentModules(server: ViteDevServer): void {
  for (const environment of Object.values(server.environments)) {
    if (!isRunnableDevEnvironment(environment)) continue;
    const modules = environment.runner.evaluatedModules;
    const pending = [DATA_STORE_MODULE];
    const seen = new Set<string>();
    for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
      const node = modules.getModuleById(id);
      if (!node || seen.has(id)) continue;
      seen.add(id);
      pending.push(...node.importers);
      modules.invalidateModule(node);
    }
  }
}

/** `current()` resolves once the content layer and the modules built from it match the folder; `onSynced` follows each sync. */
export function contentGate(
  server: ViteDevServer,
  contentDir: string,
  refreshContent: ((options: { context?: Record<string, unknown> }) => Promise<void>) | undefined,
  onSynced: () => void,
) {
  let synced = contentFingerprint(contentDir);
  let syncing: Promise<void> | undefined;

  /** Has the content layer read every file; true once a load ran (Astro skips one while it reloads its config). */
  async function reload(): Promise<boolean> {
    let ran = false;
    try {
      await refreshContent?.({ context: { [LOAD_STARTED]: () => (ran = true) } });
    } catch {
      // Content that does not load keeps the last good store; the site model reports the mistake
      // on the page and in the terminal (src/lib/content/content.ts), so it is not repeated here.
    }
    return ran || !refreshContent;
  }

  async function sync(fingerprint: string): Promise<void> {
    const deadline = Date.now() + RELOAD_TIMEOUT_MS;
    while (!(await reload()) && Date.now() < deadline) await setTimeout(RELOAD_RETRY_MS);
    synced = fingerprint;
    dropContentModules(server);
    onSynced();
  }

  return {
    async current() {
      for (;;) {
        if (syncing) {
          await syncing;
          continue;
        }
        // Taken before the read, so a save during the sync is seen by the next request.
        const now = contentFingerprint(contentDir);
        if (now === synced) return;
        syncing = sync(now).finally(() => (syncing = undefined));
      }
    },
  };
}
