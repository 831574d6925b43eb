// @ts-check
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mdx from '@astrojs/mdx';
import sitemap from '@astrojs/sitemap';
import { defineConfig } from 'astro/config';
import { parseFrontmatter } from 'astro/markdown';
import { devPreview } from './src/integrations/dev-preview.ts';
import { mdxPlaceholders } from './src/integrations/mdx-placeholders.ts';
import { siteUrl } from './src/integrations/site-url.ts';
import { buildOutputs } from './src/integrations/build-outputs.ts';

/** The content folder; CONTENT_DIR lets tests and benchmarks build a changed copy. */
const contentDir = fileURLToPath(
  new URL(`${process.env.CONTENT_DIR ?? './content'}/`, new URL('.//', import.meta.url)),
);

/** content/site.md's fields: the facts every placeholder stands for. */
const site = /** @type {import('./src/lib/content/entry-schema.ts').SiteData} */ (
  parseFrontmatter(readFileSync(join(contentDir, 'site.md'), 'utf8')).frontmatter
);

/** The canonical URL, set once in content/site.md. */
function canonicalUrl() {
  const url = /** @type {unknown} */ (site.canonical_url);
  if (typeof url !== 'string') throw new Error('content/site.md: canonical_url is missing');
  return url;
}

const outputs = buildOutputs();

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
  // Pages ship zero client JS but the proposal workspace's and the confirmation pages' scripts, bundled by Vite.
  // When the build is done, outputs writes the markdown twins and the function's .generated/ data,
  // then sitemap the sitemap with each page's date from its twin.
  integrations: [
    mdx(),
    devPreview(),
    outputs,
    sitemap({
      // The confirmation pages are opened from an email's link only: no address worth indexing.
      filter: (page) => !new URL(page).pathname.startsWith('/confirm/'),
      serialize: (item) => ({ ...item, lastmod: outputs.lastUpdated(item.url) }),
      namespaces: { news: false, xhtml: false, image: false, video: false },
    }),
  ],
  devToolbar: { enabled: false },
  vite: {
    // Fills {partner} and the rest in .mdx sources before mdx() compiles them.
    plugins: [mdxPlaceholders(site, contentDir)],
    // Images in content bodies are imported from here (src/lib/content/images.ts).
    resolve: { alias: { '@content': contentDir } },
    // Scripts stay files, however small: the site's CSP (script-src 'self') refuses inline ones.
    build: { assetsInlineLimit: (file) => (/\.[cm]?[jt]s$/.test(file) ? false : undefined) },
  },
});
