import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { globSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { buildFixture, removeFixtures, type FixtureBuild } from '../helpers/fixture-build.ts';
import { INDEX_PAGE_SIZE } from '../../src/lib/index-page-size.ts';

// A site run for years grows: 60 more posts must still give index pages within the budget.
const EXTRA_POSTS = 60;
let build: FixtureBuild;

beforeAll(() => {
  build = buildFixture((dir) => {
    for (let i = 1; i <= EXTRA_POSTS; i++) {
      const day = String((i % 28) + 1).padStart(2, '0');
      writeFileSync(
        join(dir, 'blog', `growth-note-${i}.md`),
        `---\nkind: post\ntitle: "Growth note ${i}"\ndescription: "Note ${i} on running cloud workloads well, one sentence long enough to count."\nauthor: Test Author\npublished: "2025-${String((i % 12) + 1).padStart(2, '0')}-${day}"\n---\n\nA short paragraph about operations.\n`,
      );
    }
  });
}, 120_000);
afterAll(removeFixtures);

const read = (file: string) => readFileSync(join(build.outDir, file), 'utf8');

describe('a growing blog', () => {
  it('is split into index pages, each within 14 KB gzipped, linked to each other', () => {
    expect(build.status, build.output.slice(-2000)).toBe(0);
    const archive = globSync('blog/archive/*.html', { cwd: build.outDir }).sort();
    const published = globSync('blog/*.html', { cwd: build.outDir }).length;
    expect(published).toBeGreaterThan(EXTRA_POSTS);
    expect(archive.length).toBe(Math.ceil(published / INDEX_PAGE_SIZE) - 1);
    for (const file of ['blog.html', ...archive]) {
      expect(gzipSync(readFileSync(join(build.outDir, file)), { level: 9 }).length, file).toBeLessThanOrEqual(
        14 * 1024,
      );
    }
    expect(read('blog.html')).toContain('href="/blog/archive/2"');
    expect(read('blog/archive/2.html')).toContain('href="/blog"');
  });

  it('links every post from exactly one index page, with a markdown twin for each index page', () => {
    const indexes = ['blog.html', ...globSync('blog/archive/*.html', { cwd: build.outDir })];
    const linked = indexes
      .flatMap((f) => [...read(f).matchAll(/href="\/blog\/([\w-]+)"/g)].map((m) => m[1]!))
      .filter((s) => s !== 'archive');
    const posts = globSync('blog/*.html', { cwd: build.outDir })
      .map((f) => f.replace(/^blog\/|\.html$/g, ''))
      .sort();
    expect([...linked].sort()).toEqual(posts);
    for (const index of indexes) expect(read(index.replace(/\.html$/, '.md'))).toMatch(/^---\n[\s\S]*?\n---\n\n# Blog/);
    const sitemap = read('sitemap.xml');
    expect(sitemap).toContain('/blog/archive/2</loc>');
  });
});
