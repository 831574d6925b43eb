/** `npm run dev`: netlify.toml's rewrites, answers matching the content on disk, and the function's data. */
import type { AstroIntegration, AstroIntegrationLogger } from 'astro';
import type { ServerResponse } from 'node:http';
import { DOCUMENT_PATHS } from '../contract/paths.ts';
import { globSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { isRunnableDevEnvironment, type ViteDevServer } from 'vite';
import { writeFunctionData } from './build-outputs.ts';
import { LOAD_STARTED } from '../lib/content/loader.ts';
import { CONTENT_DIR, ROOT } from '../lib/content/project-dirs.ts';

const GENERATED_DIR = join(ROOT, '.generated');
const AGENT_DOCUMENTS = fileURLToPath(new URL('../lib/agents/published.ts', import.meta.url));
/** A save often arrives as several file events; the preview reloads once they stop. */
const SETTLE_MS = 50;
/** Astro skips a refresh while it reloads its content config (a few tens of ms after a markdown change). */
const RELOAD_RETRY_MS = 20;
const RELOAD_TIMEOUT_MS = 10_000;
/** The module Astro's content runtime reads the content store from. */
const DATA_STORE_MODULE = '\0astro:data-layer-content';

/** The paths the proposal function answers: under `npm run dev`, netlify dev sends them to it, never here. */
const FUNCTION_PATHS = new Set<string>([DOCUMENT_PATHS.proposalApi, DOCUMENT_PATHS.mcp]);

/**
 * A POST that reached Astro's inner address instead of the preview's: a problem that names the
 * address to open, so the workspace says the site is not answering here, not that the request is wrong.
 */
export function functionElsewhere(res: ServerResponse): void {
  const open = process.env['SITE_URL'] ?? 'the address npm run dev prints last';
  const body = JSON.stringify({
    type: 'about:blank',
    title: 'The proposal function does not answer at this address',
    status: 503,
    detail: `This is the preview's inner address, where only pages answer. Open ${open}: the site and the proposal function answer there.`,
  });
  res.writeHead(503, { 'content-type': 'application/problem+json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(body);
}

/** netlify.toml's 200-rewrites: netlify dev applies one only when nothing answers, and Astro answers every path. */
function netlifyRewrites(toml: string): Map<string, string> {
  const rewrites = new Map<string, string>();
  for (const block of toml.split('[[redirects]]').slice(1)) {
    const from = /from\s*=\s*"([^"]+)"/.exec(block)?.[1];
    const to = /to\s*=\s*"([^"]+)"/.exec(block)?.[1];
    if (from && to && /status\s*=\s*200\b/.test(block)) rewrites.set(from, to);
  }
  return rewrites;
}

/** netlify.toml's Content-Security-Policy plus inline styles, which Vite injects in dev. */
function devContentSecurityPolicy(toml: string): string {
  const csp = /Content-Security-Policy\s*=\s*"([^"]+)"/.exec(toml)?.[1];
  if (!csp) throw new Error('netlify.toml: no Content-Security-Policy header found for the dev preview');
  return csp.replace(/style-src ([^;]*)/, "style-src $1 'unsafe-inline'");
}

/** From the modules the pages render with; on a content mistake the function keeps the last good content. */
async function refreshFunctionData(server: ViteDevServer, logger: AstroIntegrationLogger): Promise<void> {
  const environment = server.environments['ssr'];
  if (!environment || !isRunnableDevEnvironment(environment)) return;
  try {
    const documents = await environment.runner.import<typeof import('../lib/agents/published.ts')>(AGENT_DOCUMENTS);
    // As the published JSON reads: what the function receives is what GET /api/proposal answers.
    const asPublished = (value: unknown) => JSON.parse(JSON.stringify(value)) as never;
    const written = writeFunctionData(GENERATED_DIR, {
      contract: asPublished(await documents.proposalContract()),
      knowledge: asPublished(await documents.knowledge()),
    });
    if (written.length > 0) logger.info('proposal function data rewritten (.generated/)');
  } catch {
    logger.info('proposal function kept the last content that loaded; it follows once the mistake is fixed');
  }
}

/** What the folder holds now: a change to any file, a new file or a removed one changes it. */
function contentFingerprint(dir: string): string {
  return globSync('**/*', { cwd: dir })
    .sort()
    .map((path) => {
      // A file removed between the listing and the stat has no stat.
      const stat = statSync(join(dir, path), { throwIfNoEntry: false });
      return stat?.isFile() ? `${path}\t${stat.size}\t${stat.mtimeMs}` : path;
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

/**
 * Keeps answers equal to the content on disk: a save can arrive as several file events (a read
 * between them keeps half a file), and module-level results outlive a reload. So before each
 * request, when the folder differs from what was last read, every file is read again and every
 * module depending on the content dropped. `current()` resolves once they match.
 */
function contentGate(
  server: ViteDevServer,
  refreshContent: ((options: { context?: Record<string, unknown> }) => Promise<void>) | undefined,
  onSynced: () => void,
): () => Promise<void> {
  let synced = contentFingerprint(CONTENT_DIR);
  let syncing: Promise<void> | undefined;

  /** Has the content layer read every file; true once a load ran (Astro skips one while it reloads its config). */
  async function reload(): Promise<boolean> {
    let ran = false;
    try {
      await refreshContent?.({ context: { [LOAD_STARTED]: () => (ran = true) } });
    } catch {
      // The last good store stays; the site model reports the mistake on the page.
    }
    return ran || !refreshContent;
  }

  async function sync(fingerprint: string): Promise<void> {
    const deadline = Date.now() + RELOAD_TIMEOUT_MS;
    while (!(await reload()) && Date.now() < deadline) await sleep(RELOAD_RETRY_MS);
    synced = fingerprint;
    dropContentModules(server);
    onSynced();
  }

  return async function current() {
    for (;;) {
      if (syncing) {
        await syncing;
        continue;
      }
      // Taken before the read, so a save during the sync is seen by the next request.
      const now = contentFingerprint(CONTENT_DIR);
      if (now === synced) return;
      syncing = sync(now).finally(() => (syncing = undefined));
    }
  };
}

export function devPreview(): AstroIntegration {
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  return {
    name: 'dev-preview',
    hooks: {
      'astro:server:setup': ({ server, logger, refreshContent }) => {
        const toml = readFileSync(join(ROOT, 'netlify.toml'), 'utf8');
        const rewrites = netlifyRewrites(toml);
        const csp = devContentSecurityPolicy(toml);
        // One write after another, so the last one written is from the newest content.
        let functionData = Promise.resolve();
        const followContent = () => (functionData = functionData.then(() => refreshFunctionData(server, logger)));
        // After every sync, pages open in a browser reload and the function's data follows.
        const current = contentGate(server, refreshContent, () => {
          server.environments.client.hot.send({ type: 'full-reload', path: '*' });
          void followContent();
        });
        // The first request waits for the function's first data: scripts/dev.ts starts the function after it.
        let firstData: Promise<void> | undefined;
        server.middlewares.use((req, res, next) => {
          res.setHeader('Content-Security-Policy', csp);
          const url = new URL(req.url ?? '/', 'http://dev');
          // Astro's own address has no function behind it: say so to the page, in the API's own form.
          if (req.method === 'POST' && FUNCTION_PATHS.has(url.pathname)) return functionElsewhere(res);
          const to = rewrites.get(url.pathname);
          if (to && (req.method === 'GET' || req.method === 'HEAD')) req.url = `${to}${url.search}`;
          firstData ??= followContent();
          firstData.then(current).then(() => next(), next);
        });
        // A save syncs once its file events settle, even when no request asks first.
        server.watcher.on('all', (_event, file) => {
          if (!started || !file.startsWith(`${CONTENT_DIR}/`)) return;
          clearTimeout(timer);
          timer = setTimeout(() => void current(), SETTLE_MS);
        });
      },
      'astro:server:start': () => {
        started = true;
      },
    },
  };
}
