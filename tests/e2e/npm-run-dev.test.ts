import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from '../../scripts/local-site/dist.ts';
import { startDev, type DevServer } from '../helpers/dev-server.ts';
import { launchBrowser } from '../../scripts/local-site/browser.ts';

// `npm run dev` as an editor runs it, on a copy of content/ so the edit below touches nothing real.
const work = mkdtempSync(join(tmpdir(), 'dev-preview-'));
const contentDir = join(work, 'content');
const POST = 'blog/preparing-for-a-well-architected-review';
let dev: DevServer;

beforeAll(async () => {
  cpSync(join(root, 'content'), contentDir, { recursive: true });
  dev = await startDev({ CONTENT_DIR: contentDir });
});

afterAll(async () => {
  await dev?.stop();
  if (dev) expect(() => process.kill(dev.pid, 0)).toThrow(); // stopped by its PID
  rmSync(work, { recursive: true, force: true });
});

const get = (path: string) => fetch(`${dev.url}${path}`);

describe('npm run dev: the live preview serves what production serves', () => {
  it.each([
    ['/', /^text\/html/],
    ['/services', /^text\/html/],
    ['/services.md', /^text\/markdown; charset=utf-8$/],
    ['/llms.txt', /^text\/plain; charset=utf-8$/],
    ['/llms-full.txt', /^text\/plain; charset=utf-8$/],
    ['/api/capabilities', /^application\/json; charset=utf-8$/],
    ['/api/proposal', /^application\/json; charset=utf-8$/],
    ['/openapi.json', /^application\/json/],
    ['/.well-known/api-catalog', /^application\/json/],
    ['/robots.txt', /^text\/plain/],
  ])('GET %s → 200 %s', async (path, type) => {
    const res = await get(path);
    expect(res.status, dev.output()).toBe(200);
    expect(res.headers.get('content-type')).toMatch(type);
  });

  it('shows an edited post within a few seconds, on the page, its twin and llms-full.txt', async () => {
    const marker = `Edited while previewing ${Date.now()}.`;
    expect(await (await get(`/${POST}`)).text()).not.toContain(marker);
    const file = join(contentDir, `${POST}.md`);
    writeFileSync(file, `${readFileSync(file, 'utf8')}\n${marker}\n`);
    const started = Date.now();
    let html = '';
    while (Date.now() - started < 5000 && !html.includes(marker)) {
      await new Promise((r) => setTimeout(r, 200));
      html = await (await get(`/${POST}`)).text();
    }
    expect(html, dev.output()).toContain(marker);
    expect(await (await get(`/${POST}.md`)).text()).toContain(marker);
    expect(await (await get('/llms-full.txt')).text()).toContain(marker);
  });

  it('reloads an open page in the browser when its file changes, styles applied', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const blocked: string[] = [];
      page.on('console', (m) => m.text().includes('Content Security Policy') && blocked.push(m.text()));
      // The page listens for changes once Vite's client is connected (through netlify dev's proxy).
      const connected = page.waitForEvent('console', {
        predicate: (m) => m.text().includes('[vite] connected'),
        timeout: 10_000,
      });
      await page.goto(`${dev.url}/${POST}`, { waitUntil: 'networkidle' });
      await connected;
      expect(await page.evaluate(() => getComputedStyle(document.querySelector('main')!).maxWidth)).not.toBe('none');
      const marker = `Reloaded in the browser ${Date.now()}.`;
      const file = join(contentDir, `${POST}.md`);
      writeFileSync(file, `${readFileSync(file, 'utf8')}\n${marker}\n`);
      await page.waitForFunction((text) => document.body.innerText.includes(text), marker, { timeout: 8000 });
      expect(blocked).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('shows a content mistake on the page, in editor words, until it is fixed', async () => {
    const file = join(contentDir, `${POST}.md`);
    const good = readFileSync(file, 'utf8');
    const until = async (check: (res: Response, text: string) => boolean) => {
      const started = Date.now();
      for (;;) {
        const res = await get(`/${POST}`);
        const text = await res.text();
        if (check(res, text) || Date.now() - started > 5000) return { status: res.status, text };
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    writeFileSync(file, `${good}\nSee [our services](/servces).\n`);
    const broken = await until((res) => res.status === 500);
    expect(broken.status).toBe(500);
    // The page is Astro's error overlay (drawn by its script); the terminal carries the same words.
    expect(broken.text).toContain('<title>ContentError</title>');
    expect(dev.output()).toContain(`content/${POST}.md:`);
    expect(dev.output()).toContain('link "/servces": no page at /servces; did you mean /services?');
    writeFileSync(file, good);
    expect((await until((res) => res.ok)).status).toBe(200);
  });

  it('answers POST /api/proposal with the function: a guide request', async () => {
    const contract = await (await get('/api/proposal')).json();
    const res = await fetch(`${dev.url}/api/proposal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(contract.actions.guide.example_request),
    });
    expect(res.status, dev.output()).toBe(200);
    expect(await res.json()).toEqual(contract.actions.guide.example_response.body);
  });

  it('lets the page styles apply: inline dev styles are allowed, the rest of the policy is kept', async () => {
    const csp = (await get('/services')).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
