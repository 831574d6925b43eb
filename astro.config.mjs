// @ts-check
import { readFileSync } from 'node:fs';
import mdx from '@astrojs/mdx';
import { defineConfig } from 'astro/config';
import { load as loadYaml } from 'js-yaml';
import { devPreview } from './src/build/dev-preview.ts';
import { functionData } from './src/build/function-data-integration.ts';

/** The canonical URL is set once, in content/site.md; `SITE_URL` or Netlify's `URL` override it. */
function canonicalUrl() {
  const override = process.env.SITE_URL || process.env.URL;
  if (override) return override;
  const contentDir = new URL(`${process.env.CONTENT_DIR ?? './content'}/`, new URL('./', import.meta.url));
  const source = readFileSync(new URL('site.md', contentDir), 'utf8');
  const frontmatter = /** @type {{ canonical_url?: string }} */ (loadYaml(source.split(/^---\s*$/m)[1] ?? ''));
  if (!frontmatter?.canonical_url) throw new Error('content/site.md: canonical_url is missing');
  return frontmatter.canonical_url;
}

export default defineConfig({
  site: canonicalUrl(),
  // Fixture builds (tests, benchmarks) run side by side; each keeps its own content cache.
  ...(process.env.ASTRO_CACHE_DIR ? { cacheDir: process.env.ASTRO_CACHE_DIR } : {}),
  output: 'static',
  trailingSlash: 'never',
  build: { format: 'file', inlineStylesheets: 'never' },
  // Pages ship zero client JS; the one script of the proposal workspace is bundled by Vite.
  // /sitemap.xml is a route of its own (src/lib/sitemap.ts): it carries lastmod from content dates.
  // functionData writes the proposal function's .generated/ data when the build is done.
  integrations: [mdx(), devPreview(), functionData()],
  devToolbar: { enabled: false },
});
