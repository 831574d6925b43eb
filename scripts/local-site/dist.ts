/** Reading the built site in dist/ the way a static host serves it. */
import { existsSync, readFileSync, globSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const dist = join(root, 'dist');

export const readDist = (file: string) => readFileSync(join(dist, file), 'utf8');
export const distFiles = (pattern: string, dir = dist) => globSync(pattern, { cwd: dir }).sort();
export const gzipSize = (file: string) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;

/** The 200-rewrites of netlify.toml, so tests resolve published paths exactly as Netlify does. */
export function rewrites(): Map<string, string> {
  const toml = readFileSync(join(root, 'netlify.toml'), 'utf8');
  const map = new Map<string, string>();
  for (const block of toml.split('[[redirects]]').slice(1)) {
    const from = /from\s*=\s*"([^"]+)"/.exec(block)?.[1];
    const to = /to\s*=\s*"([^"]+)"/.exec(block)?.[1];
    if (from && to && /status\s*=\s*200/.test(block)) map.set(from, to);
  }
  return map;
}

/** The dist/ file a path is served from, or undefined when nothing would be served. */
export function fileForPath(path: string): string | undefined {
  const target = rewrites().get(path) ?? path;
  const candidates =
    target === '/' ? ['index.html'] : [target.slice(1), `${target.slice(1)}.html`, `${target.slice(1)}/index.html`];
  return candidates.find((c) => existsSync(join(dist, c)) && !c.endsWith('/'));
}

/**
 * Pages with no address of their own to list: the 404 page (served for unknown paths) and the
 * confirmation pages (opened from an email's link): no twin, no sitemap entry, noindex.
 */
export const isUnlistedPage = (path: string) => path === '/404' || path.startsWith('/confirm/');

/** Site paths of every HTML page of a build (dist/ by default). */
export function htmlPages(dir = dist): { file: string; path: string }[] {
  return distFiles('**/*.html', dir).map((file) => ({
    file,
    path: file === 'index.html' ? '/' : `/${file.replace(/\.html$/, '')}`,
  }));
}
