// @ts-check
import { readFileSync } from 'node:fs';
import mdx from '@astrojs/mdx';
import { defineConfig } from 'astro/config';
import { load as loadYaml } from 'js-yaml';
import { devPreview } from './src/build/dev-preview.ts';
import { siteUrl } from './src/build/site-url.ts';
import { functionData } from './src/build/function-data-integration.ts';
import { twinFilesIntegration } from './src/build/twin-files-integration.ts';

/** The canonical URL, set once in content/site.md. */
function canonicalUrl() {
  const contentDir = new URL(`${process.env.CONTENT_DIR ?? './content'}/`, new URL('./', import.meta.url));
  const source = readFileSync(new URL('site.md', contentDir), 'utf8');
  const frontmatter = /** @type {{ canonical_url?: string }} */ (loadYaml(source.split(/^---\s*$/m)[1] ?? ''));
  if (!frontmatter?.canonical_url) throw new Error('content/site.md: canonical_url is missing');
  return frontmatter.canonical_url;
}

export default defineConfig({
  // The build's own origin: canonical in production, its own address in previews and locally.
  site: siteUrl(process.env, canonicalUrl()),
  // Fixture builds (tests, benchmarks) run side by side; each keeps its own content cache.
  ...(process.env.ASTRO_CACHE_DIR ? { cacheDir: process.env.ASTRO_CACHE_DIR } : {}),
  output: 'static',
  trailingSlash: 'never',
  // Four pages at a time: one at a time, the build spends a third of its time waiting on file
  // writes (profiled with 10,000 posts); more than four adds memory and little speed.
  build: { format: 'file', inlineStylesheets: 'never', concurrency: 4 },
  // Pages ship zero client JS; the one script of the proposal workspace is bundled by Vite.
  // /sitemap.xml is a route of its own (src/lib/sitemap.ts): it carries lastmod from content dates.
  // twinFilesIntegration writes the markdown twins, functionData the proposal function's
  // .generated/ data, when the build is done.
  integrations: [mdx(), devPreview(), twinFilesIntegration(), functionData()],
  devToolbar: { enabled: false },
});
