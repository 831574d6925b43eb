import { describe, expect, it } from 'vitest';
import { distFiles, fileForPath, htmlPages, readDist } from '../../scripts/local-site/dist.ts';

// A safety net behind the build's content link check: every internal link on every built page,
// whoever wrote it (content, layouts, generated sections), lands on a built file and heading.
const ids = (html: string) => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!));

describe('internal links in the built pages', () => {
  const pages = htmlPages();

  it('finds pages to check', () => expect(pages.length).toBeGreaterThan(10));

  it('every internal href resolves to a built file, and every #fragment to an element on it', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const { file, path } of pages) {
      const html = readDist(file);
      for (const [, href] of html.matchAll(/<a\s[^>]*href="([^"]+)"/g)) {
        if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(href!)) continue;
        const url = new URL(href!.replace(/&amp;/g, '&'), `https://site.invalid${path}`);
        checked++;
        const target = fileForPath(url.pathname);
        if (!target) {
          broken.push(`${file}: ${href} (no file)`);
          continue;
        }
        const id = decodeURIComponent(url.hash.slice(1));
        if (id && target.endsWith('.html') && !ids(readDist(target)).has(id))
          broken.push(`${file}: ${href} (no #${id})`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('every image on a page is a built file with width and height', () => {
    for (const { file } of pages) {
      for (const [img] of readDist(file).matchAll(/<img\s[^>]*>/g)) {
        const src = /src="([^"]+)"/.exec(img)![1]!;
        expect(distFiles(src.slice(1)), `${file}: ${src}`).toHaveLength(1);
        expect(img, file).toMatch(/width="\d+" height="\d+"/);
      }
    }
  });
});
