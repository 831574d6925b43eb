/**
 * The Astro floor of the build benchmark: the smallest honest site of N markdown posts on the same
 * Astro, with @astrojs/sitemap, built the same way as ours. The posts are the very files
 * scripts/bench/posts.ts writes for our build, so both sides render the same markdown; the floor
 * only lacks what our site adds (agent documents, twins, index pages, checks).
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeGeneratedPosts } from './posts.ts';
import { root } from './process.ts';

const FILES: Record<string, string> = {
  'package.json': '{ "name": "astro-floor", "private": true, "type": "module" }\n',
  'astro.config.mjs': `import sitemap from '@astrojs/sitemap';
import { defineConfig } from 'astro/config';
// Its own content cache: node_modules is the project's (linked), whose cache must stay untouched.
export default defineConfig({ site: 'https://floor.example', cacheDir: './.astro-cache', integrations: [sitemap()], build: { format: 'file' } });
`,
  'src/content.config.ts': `import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';
export const collections = {
  blog: defineCollection({
    loader: glob({ pattern: '*.md', base: './content/blog' }),
    schema: z.object({ title: z.string(), description: z.string(), published: z.string() }),
  }),
};
`,
  'src/layouts/base.astro': `---
const { title } = Astro.props;
---
<html lang="en"><head><meta charset="utf-8"><title>{title}</title></head><body><slot /></body></html>
`,
  'src/pages/index.astro': `---
import { getCollection } from 'astro:content';
import Base from '../layouts/base.astro';
const posts = (await getCollection('blog')).sort((a, b) => b.data.published.localeCompare(a.data.published));
---
<Base title="Blog"><ul>{posts.map((p) => <li><a href={\`/blog/\${p.id}\`}>{p.data.title}</a></li>)}</ul></Base>
`,
  'src/pages/blog/[slug].astro': `---
import { getCollection, render } from 'astro:content';
import Base from '../../layouts/base.astro';
export async function getStaticPaths() {
  return (await getCollection('blog')).map((post) => ({ params: { slug: post.id }, props: { post } }));
}
const { post } = Astro.props;
const { Content } = await render(post);
---
<Base title={post.data.title}><h1>{post.data.title}</h1><Content /></Base>
`,
};

/** Writes the floor project with `posts` posts into `dir` (node_modules linked to the project's). */
export function writeFloorProject(dir: string, posts: number): void {
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeGeneratedPosts(join(dir, 'content'), posts);
}
