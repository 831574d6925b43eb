/**
 * The dev preview (`npm run dev`, scripts/dev.ts): Astro's dev server behind netlify dev. This
 * integration gives the dev server what production has beyond Astro's own routes: the published
 * paths of netlify.toml's rewrites, answers that always match the content on disk
 * (./dev-content-gate.ts), and the proposal function's `.generated/` data, rewritten whenever
 * content changes so the function answers from the content on screen.
 */
import type { AstroIntegration, AstroIntegrationLogger } from 'astro';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFunctionDataFrom } from './function-data.ts';
import { contentGate } from './dev-content-gate.ts';

const ROOT = new URL('../../', import.meta.url);
const GENERATED_DIR = fileURLToPath(new URL('.generated/', ROOT));
/** A save often arrives as several file events; the preview reloads once they stop. */
const SETTLE_MS = 50;

/**
 * The 200-rewrites of netlify.toml (published path → emitted file). netlify dev applies a
 * non-forced rewrite only when nothing answers the original path, and Astro's catch-all page
 * route answers every path, so the dev server applies them itself.
 */
function netlifyRewrites(): Map<string, string> {
  const toml = readFileSync(new URL('netlify.toml', ROOT), 'utf8');
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
function devContentSecurityPolicy(): string {
  const toml = readFileSync(new URL('netlify.toml', ROOT), 'utf8');
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
 * Rewrites the function's data after a content change (scripts/dev.ts wrote it at start). Content
 * with a mistake is reported once, on the page and in the terminal; the function keeps answering
 * from the last content that loaded until the mistake is fixed.
 */
async function refreshFunctionData(origin: string, logger: AstroIntegrationLogger): Promise<void> {
  const before = functionDataNow();
  try {
    await writeFunctionDataFrom(origin, GENERATED_DIR);
  } catch {
    logger.info('proposal function kept the last content that loaded; it follows once the mistake is fixed');
    return;
  }
  if (functionDataNow() !== before) logger.info('proposal function data rewritten (.generated/)');
}

export function devPreview(): AstroIntegration {
  let origin: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  return {
    name: 'dev-preview',
    hooks: {
      'astro:server:setup': ({ server, logger, refreshContent }) => {
        const rewrites = netlifyRewrites();
        const csp = devContentSecurityPolicy();
        const contentDir = fileURLToPath(new URL(`${process.env.CONTENT_DIR ?? './content'}/`, ROOT));
        const gate = contentGate(server, contentDir, refreshContent);
        server.middlewares.use((req, res, next) => {
          res.setHeader('Content-Security-Policy', csp);
          const url = new URL(req.url ?? '/', 'http://dev');
          const to = rewrites.get(url.pathname);
          if (to && (req.method === 'GET' || req.method === 'HEAD')) req.url = `${to}${url.search}`;
          gate.current().then(() => next(), next);
        });
        // Pages open in a browser reload, and the function's data follows, as soon as a save settles.
        server.watcher.on('all', (_event, file) => {
          if (!origin || !file.startsWith(contentDir)) return;
          clearTimeout(timer);
          const at = origin;
          timer = setTimeout(() => {
            void gate.current().then(async (changed) => {
              if (!changed) return;
              server.environments.client.hot.send({ type: 'full-reload', path: '*' });
              await refreshFunctionData(at, logger);
            });
          }, SETTLE_MS);
        });
      },
      'astro:server:start': ({ address }) => {
        const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
        origin = `http://${host}:${address.port}`;
      },
    },
  };
}
