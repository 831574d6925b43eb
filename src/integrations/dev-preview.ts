/**
 * The dev preview (`npm run dev`, scripts/dev.ts): Astro's dev server behind netlify dev. This
 * integration gives the dev server what production has beyond Astro's own routes: the published
 * paths of netlify.toml's rewrites, answers that always match the content on disk
 * (./dev-content-gate.ts), and the proposal function's `.generated/` data, written at start and
 * whenever content changes, so the function answers from the content on screen.
 */
import type { AstroIntegration, AstroIntegrationLogger } from 'astro';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRunnableDevEnvironment, type ViteDevServer } from 'vite';
import { writeFunctionData } from './function-data.ts';
import { contentGate } from './dev-content-gate.ts';

const ROOT = new URL('../../', import.meta.url);
const GENERATED_DIR = fileURLToPath(new URL('.generated/', ROOT));
const AGENT_DOCUMENTS = fileURLToPath(new URL('../lib/agents/agent-documents.ts', import.meta.url));
/** A save often arrives as several file events; the preview reloads once they stop. */
const SETTLE_MS = 50;

/**
 * The 200-rewrites of netlify.toml (published path → emitted file). netlify dev applies a
 * non-forced rewrite only when nothing answers the original path, and Astro's catch-all page
 * route answers every path, so the dev server applies them itself.
 */
function netlifyRewrites(toml: string): Map<string, string> {
  const rewrites = new Map<string, string>();
  for (const block of toml.split('[[redirects]]').slice(1)) {
    const from = /from\s*=\s*"([^"]+)"/.exec(block)?.[1];
    const to = /to\s*=\s*"([^"]+)"/.exec(block)?.[1];
    if (from && to && /status\s*=\s*200\b/.test(block)) rewrites.set(from, to);
  }
  return rewrites;
}

/**
 * The site's Content-Security-Policy (netlify.toml) with inline styles allowed: Vite injects a
 * page's CSS as inline <style> in dev. netlify dev keeps a header the dev server sets itself.
 */
function devContentSecurityPolicy(toml: string): string {
  const csp = /Content-Security-Policy\s*=\s*"([^"]+)"/.exec(toml)?.[1];
  if (!csp) throw new Error('netlify.toml: no Content-Security-Policy header found for the dev preview');
  return csp.replace(/style-src ([^;]*)/, "style-src $1 'unsafe-inline'");
}

/** The function's data as it stands, to tell a rewrite from a check that found nothing to change. */
function functionDataNow(): string {
  return readdirSync(GENERATED_DIR)
    .sort()
    .map((file) => readFileSync(join(GENERATED_DIR, file), 'utf8'))
    .join('\0');
}

/**
 * Writes the function's data, at start and after a content change, from the same modules the
 * pages render with, so a content mistake is not reported again by a request of our own: the page
 * and the terminal report it once, and the function keeps answering from the last content that
 * loaded until it is fixed.
 */
async function refreshFunctionData(server: ViteDevServer, logger: AstroIntegrationLogger): Promise<void> {
  const environment = server.environments['ssr'];
  if (!environment || !isRunnableDevEnvironment(environment)) return;
  const before = functionDataNow();
  try {
    const documents =
      await environment.runner.import<typeof import('../lib/agents/agent-documents.ts')>(AGENT_DOCUMENTS);
    // As the published JSON reads: what the function receives is what GET /api/proposal answers.
    const asPublished = (value: unknown) => JSON.parse(JSON.stringify(value)) as never;
    writeFunctionData(GENERATED_DIR, {
      contract: asPublished(await documents.proposalContract()),
      knowledge: asPublished(await documents.knowledge()),
    });
  } catch {
    logger.info('proposal function kept the last content that loaded; it follows once the mistake is fixed');
    return;
  }
  if (functionDataNow() !== before) logger.info('proposal function data rewritten (.generated/)');
}

export function devPreview(): AstroIntegration {
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  return {
    name: 'dev-preview',
    hooks: {
      'astro:server:setup': ({ server, logger, refreshContent }) => {
        const toml = readFileSync(new URL('netlify.toml', ROOT), 'utf8');
        const rewrites = netlifyRewrites(toml);
        const csp = devContentSecurityPolicy(toml);
        const contentDir = fileURLToPath(new URL(`${process.env.CONTENT_DIR ?? './content'}/`, ROOT));
        // One write after another, so the last one written is from the newest content.
        let functionData = Promise.resolve();
        const writeFunctionData = () => (functionData = functionData.then(() => refreshFunctionData(server, logger)));
        // After every sync, pages open in a browser reload and the function's data follows.
        const gate = contentGate(server, contentDir, refreshContent, () => {
          server.environments.client.hot.send({ type: 'full-reload', path: '*' });
          void writeFunctionData();
        });
        // The first request waits for the function's first data: scripts/dev.ts starts the function after it.
        let firstData: Promise<void> | undefined;
        server.middlewares.use((req, res, next) => {
          res.setHeader('Content-Security-Policy', csp);
          const url = new URL(req.url ?? '/', 'http://dev');
          const to = rewrites.get(url.pathname);
          if (to && (req.method === 'GET' || req.method === 'HEAD')) req.url = `${to}${url.search}`;
          firstData ??= writeFunctionData();
          firstData.then(() => gate.current()).then(() => next(), next);
        });
        // A save syncs once its file events settle, even when no request asks first.
        server.watcher.on('all', (_event, file) => {
          if (!started || !file.startsWith(contentDir)) return;
          clearTimeout(timer);
          timer = setTimeout(() => void gate.current(), SETTLE_MS);
        });
      },
      'astro:server:start': () => {
        started = true;
      },
    },
  };
}
