import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { globSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { buildFixture, removeFixtures, type FixtureBuild } from '../helpers/fixture-build.ts';
import { contentFiles, ofKind } from '../helpers/content-files.ts';
import type { SiteData } from '../../src/lib/content/entry-schema.ts';
import { INDEX_PAGE_SIZE } from '../../src/contract/paths.ts';
import { LLMS_FULL_MAX_BYTES, LLMS_TXT_SECTION_MAX_LINKS } from '../../src/lib/agents/llms-limits.ts';

// A site run for years grows: 120 more posts must still give index pages within the budget, and
// more blog pages than /llms.txt lists in one section.
const EXTRA_POSTS = 120;
/** Long enough that the posts alone outgrow one llms-full file, so the build must split it. */
const PARAGRAPH =
  'Operations teams keep runbooks short, review them on a fixed date and retire the steps nobody uses. ';
const BODY = Array.from({ length: 12 }, () => PARAGRAPH.repeat(8)).join('\n\n');
const TAG = 'operations';
const base = new URL((ofKind(contentFiles(), 'site')[0]!.data as unknown as SiteData).canonical_url);
let build: FixtureBuild;

beforeAll(() => {
  build = buildFixture((dir) => {
    for (let i = 1; i <= EXTRA_POSTS; i++) {
      const day = String((i % 28) + 1).padStart(2, '0');
      writeFileSync(
        join(dir, 'blog', `growth-note-${i}.md`),
        `---\nkind: post\ntitle: "Growth note ${i}"\ndescription: "Note ${i} on running cloud workloads well, one sentence long enough to count."\nauthor: Priya Raman\npublished: "2025-${String((i % 12) + 1).padStart(2, '0')}-${day}"\ntags:\n  - ${TAG}\n---\n\n${BODY}\n`,
      );
    }
  });
}, 120_000);
afterAll(removeFixtures);

const read = (file: string) => readFileSync(join(build.outDir, file), 'utf8');

/** The date line a post's twin opens with, e.g. "*14 July 2026, by ": the date as the reader sees it. */
const POST_DATE_LINE = /^\*(\d{1,2} [A-Z][a-z]+ \d{4}), /m;

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
    const sitemap = read('sitemap-0.xml');
    expect(sitemap).toContain('/blog/archive/2</loc>');
  });
});

describe('the full text of a growing site', () => {
  const sectionFiles = () => globSync('llms-full/*.txt', { cwd: build.outDir }).sort();
  const bytes = (file: string) => Buffer.byteLength(read(file), 'utf8');

  it('keeps /llms-full.txt and every section file within the documented size', () => {
    expect(build.status, build.output.slice(-2000)).toBe(0);
    const posts = globSync('blog/*.md', { cwd: build.outDir }).map((f) => bytes(f));
    // The fixture must really outgrow one file, or this test proves nothing.
    expect(posts.reduce((a, b) => a + b, 0)).toBeGreaterThan(LLMS_FULL_MAX_BYTES);
    for (const file of ['llms-full.txt', ...sectionFiles()]) {
      expect(bytes(file), file).toBeLessThanOrEqual(LLMS_FULL_MAX_BYTES);
    }
    expect(sectionFiles()).toContain('llms-full/blog-2.txt');
  });

  it('holds every page exactly once across the section files, each linked from /llms.txt', () => {
    const llms = read('llms.txt');
    const sources = new Map<string, number>();
    for (const file of sectionFiles()) {
      expect(llms, file).toContain(`](${new URL(`/${file}`, base).href})`);
      for (const m of read(file).matchAll(/^Source: (\S+)$/gm)) sources.set(m[1]!, (sources.get(m[1]!) ?? 0) + 1);
    }
    // Every markdown file but /sitemap.md is a page's twin.
    const twins = globSync('**/*.md', { cwd: build.outDir, exclude: ['sitemap.md'] }).map(
      (f) => new URL(f === 'index.md' ? '/' : `/${f.replace(/\.md$/, '')}`, base).href,
    );
    expect([...sources.keys()].sort()).toEqual(twins.sort());
    expect([...sources.values()].every((n) => n === 1)).toBe(true);
  });

  it('keeps the smaller sections in /llms-full.txt in full and names the files where the blog continues', () => {
    const whole = read('llms-full.txt');
    expect(whole).toContain(`Source: ${new URL('/services', base).href}`);
    expect(whole).not.toContain(`Source: ${new URL('/blog/growth-note-1', base).href}`);
    expect(whole).toContain(new URL('/llms-full/blog-2.txt', base).href);
    expect(read('llms-full/blog-2.txt')).toContain(`Previous part: ${new URL('/llms-full/blog.txt', base).href}`);
  });
});

describe('/llms.txt of a growing site', () => {
  const blogSection = () =>
    read('llms.txt')
      .split(/^## /m)
      .find((s) => s.startsWith('Blog\n')) ?? '';
  const links = (text: string) => [...text.matchAll(/^- \[[^\]]+\]\((\S+)\)/gm)].map((m) => m[1]!);
  // A post's twin opens with its date as a reader sees it: "*14 July 2026, by …".
  const dateOf = (twin: string) => {
    const shown = POST_DATE_LINE.exec(read(twin))?.[1];
    return shown === undefined ? undefined : new Date(`${shown} UTC`).toISOString().slice(0, 10);
  };

  it('lists at most the limit of blog links: the index, the newest posts and a link back to the index', () => {
    expect(build.status, build.output.slice(-2000)).toBe(0);
    const blogPages = globSync(['blog.md', 'blog/**/*.md'], { cwd: build.outDir });
    // The fixture must really outgrow the limit, or this test proves nothing.
    expect(blogPages.length).toBeGreaterThan(LLMS_TXT_SECTION_MAX_LINKS);
    const listed = links(blogSection());
    expect(listed).toHaveLength(LLMS_TXT_SECTION_MAX_LINKS);
    const index = new URL('/blog.md', base).href;
    expect(listed[0]).toBe(index);
    expect(listed.at(-1)).toBe(index);
    expect(blogSection()).toContain(`${blogPages.length.toLocaleString('en-US')} in all`);
    for (const link of listed)
      expect(globSync(new URL(link).pathname.slice(1), { cwd: build.outDir }), link).toHaveLength(1);
  });

  it('lists the newest posts: none left out is newer than one listed', () => {
    const listed = new Set(links(blogSection()).map((l) => new URL(l).pathname.slice(1)));
    const posts = globSync('blog/*.md', { cwd: build.outDir })
      .filter((f) => POST_DATE_LINE.test(read(f)))
      .map((f) => ({ f, date: dateOf(f)! }));
    expect(posts.length).toBeGreaterThan(LLMS_TXT_SECTION_MAX_LINKS);
    const shown = posts.filter((p) => listed.has(p.f)).map((p) => p.date);
    const hidden = posts.filter((p) => !listed.has(p.f)).map((p) => p.date);
    expect(shown.length).toBe(LLMS_TXT_SECTION_MAX_LINKS - 2);
    expect(hidden.length).toBeGreaterThan(0);
    expect(hidden.every((d) => shown.every((s) => s >= d))).toBe(true);
  });
});

describe('/sitemap.md of a growing site', () => {
  it('lists the blog by its index pages, which together list every post, and says how many posts there are', () => {
    const blog =
      read('sitemap.md')
        .split(/^## /m)
        .find((s) => s.startsWith('Blog\n')) ?? '';
    const listed = [...blog.matchAll(/^- \[[^\]]+\]\((\S+)\)/gm)].map((m) => new URL(m[1]!).pathname.slice(1));
    const posts = globSync('blog/*.md', { cwd: build.outDir }).filter((f) => POST_DATE_LINE.test(read(f)));
    expect(posts.length).toBeGreaterThan(LLMS_TXT_SECTION_MAX_LINKS);
    expect(blog).toContain(`${posts.length.toLocaleString('en-US')} Blog entries`);
    expect(listed).toContain('blog.md');
    expect(listed).toContain('blog/archive/2.md');
    expect(listed.filter((f) => posts.includes(f))).toEqual([]);
    // Every post is on one of the index pages listed.
    const linkedFromIndexes = new Set(
      listed.flatMap((f) => [...read(f).matchAll(/\]\((\S+?)\)/g)].map((m) => new URL(m[1]!, base).pathname)),
    );
    expect(posts.filter((f) => !linkedFromIndexes.has(`/${f.replace(/\.md$/, '')}`))).toEqual([]);
  });
});

describe("a growing tag's pages", () => {
  it('are split like the blog index, each within 14 KB gzipped, linked to each other', () => {
    const pages = [`blog/tags/${TAG}.html`, ...globSync(`blog/tags/${TAG}/archive/*.html`, { cwd: build.outDir })];
    expect(pages.length).toBe(Math.ceil(EXTRA_POSTS / INDEX_PAGE_SIZE));
    for (const file of pages) {
      expect(gzipSync(readFileSync(join(build.outDir, file)), { level: 9 }).length, file).toBeLessThanOrEqual(
        14 * 1024,
      );
      expect(read(file.replace(/\.html$/, '.md')), file).toMatch(/^---\n[\s\S]*?\n---\n\n# Posts tagged/);
    }
    expect(read(`blog/tags/${TAG}.html`)).toContain(`href="/blog/tags/${TAG}/archive/2"`);
    const linked = pages.flatMap((f) => [...read(f).matchAll(/href="\/blog\/(growth-note-\d+)"/g)].map((m) => m[1]!));
    expect(new Set(linked).size).toBe(EXTRA_POSTS);
  });
});
