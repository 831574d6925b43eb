import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from '../../scripts/local-site/dist.ts';
import { startDev, type DevServer } from '../helpers/dev-server.ts';
import { launchBrowser } from '../../scripts/local-site/browser.ts';
import { isLoopback, listenersOf, processTree } from '../helpers/listeners.ts';

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

describe('where npm run dev listens', () => {
  it('every socket of its process tree is bound to loopback', () => {
    const listeners = listenersOf(processTree(dev.pid));
    expect(listeners.length).toBeGreaterThanOrEqual(3);
    expect(listeners.filter((l) => !isLoopback(l.address))).toEqual([]);
    console.info(`npm run dev listens on: ${listeners.map((l) => `${l.address}:${l.port}`).join(', ')}`);
  });
});

const CAPABILITY = 'capabilities/cloud-engineering.md';
/**
 * Every published document built from content that the dev server renders (the API catalog and
 * robots.txt are not built from content). GET /api/proposal is the contract file, rewritten to
 * the dev server's route as the CDN rewrites it to the built file.
 */
const CONTENT_DOCUMENTS = [
  '/api/proposal',
  '/',
  '/services',
  '/services.md',
  '/index.md',
  '/delivery-models',
  '/proposal',
  '/agents',
  `/${POST}`,
  `/${POST}.md`,
  '/llms.txt',
  '/llms-full.txt',
  '/llms-full/services.txt',
  '/api/capabilities',
  '/openapi.json',
  '/.well-known/ai-catalog.json',
  '/.well-known/agent-skills/index.json',
  '/.well-known/agent-skills/request-a-proposal/SKILL.md',
  '/rss.xml',
];
/** The documents that name each capability. */
const SHOWS_CAPABILITY_NAME = [
  '/',
  '/services',
  '/services.md',
  '/index.md',
  '/delivery-models',
  '/proposal',
  '/llms-full.txt',
  '/llms-full/services.txt',
  '/api/capabilities',
  '/openapi.json',
  '/.well-known/ai-catalog.json',
  '/.well-known/agent-skills/request-a-proposal/SKILL.md',
];

/** Each document fetched once, right away: no waiting, no second try. */
async function everyDocument(): Promise<Map<string, { status: number; text: string }>> {
  const answers = new Map<string, { status: number; text: string }>();
  for (const path of CONTENT_DOCUMENTS) {
    const res = await get(path);
    answers.set(path, { status: res.status, text: await res.text() });
  }
  return answers;
}

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
    ['/mcp/server-card', /^application\/mcp-server-card\+json; charset=utf-8$/],
    ['/.well-known/mcp/server-card.json', /^application\/json; charset=utf-8$/],
    ['/sitemap.md', /^text\/markdown; charset=utf-8$/],
  ])('GET %s → 200 %s', async (path, type) => {
    const res = await get(path);
    expect(res.status, dev.output()).toBe(200);
    expect(res.headers.get('content-type')).toMatch(type);
  });

  it('prints the address to open last and alone: no inner address, no hint of a healthy start, no warning of an empty collection', () => {
    // eslint-disable-next-line no-control-regex -- ANSI colour codes are control characters
    const output = dev.output().replace(/\u001b\[[0-9;]*m/g, '');
    const port = new URL(dev.url).port;
    expect(output).toMatch(new RegExp(`\\nnpm run dev: open http://localhost:${port}\\n`));
    for (const noise of [
      '┃ Local',
      'Local dev server ready',
      '⬥ Injected',
      '⬥ Edge functions',
      'DeprecationWarning',
      'does not exist or is empty',
      'No files found matching',
    ])
      expect(output, noise).not.toContain(noise);
  });

  it('answers POST /api/proposal with the function: a guide request, as the contract example says', async () => {
    const contract = await (await get('/api/proposal')).json();
    const res = await fetch(`${dev.url}/api/proposal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(contract.actions.guide.example_request),
    });
    expect(res.status, dev.output()).toBe(200);
    expect(await res.json()).toEqual(contract.actions.guide.example_response.body);
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

  it('answers every document from the content as saved: edited, broken and fixed, three times in a row', async () => {
    const file = join(contentDir, CAPABILITY);
    const good = readFileSync(file, 'utf8');
    const named = (marker: string) => good.replace(/^name: (.*)$/m, `name: $1 ${marker}`);
    let previous = '';
    onTestFinished(() => writeFileSync(file, good));
    /** The terminal named the file, the line and the field of the last round's mistake once, without our stack. */
    const saidOnce = (round: number) => {
      // Only the last few kilobytes of output are kept: enough for one round.
      const output = dev.output();
      expect(
        output.split(`content/${CAPABILITY}:13:8\n  field:    order\n  found:    "first${round}"`).length - 1,
        output,
      ).toBe(1);
      expect(output).not.toContain('at checkContentFiles');
    };
    for (const round of [1, 2, 3]) {
      // A save as most editors make it: the file is truncated, then written.
      const marker = `Edited${round}x${Date.now()}`;
      writeFileSync(file, named(marker));
      const fixed = await everyDocument();
      for (const [path, { status, text }] of fixed) {
        expect(status, `${path} after save ${round}\n${dev.output()}`).toBe(200);
        if (SHOWS_CAPABILITY_NAME.includes(path)) expect(text, `${path} after save ${round}`).toContain(marker);
        if (previous) expect(text, `${path} after save ${round}`).not.toContain(previous);
      }
      if (round > 1) saidOnce(round - 1);
      previous = marker;

      // The same file with a mistake, saved the other common way: written beside it, then renamed over it.
      writeFileSync(`${file}.tmp`, named(marker).replace(/^order: \d+$/m, `order: first${round}`));
      renameSync(`${file}.tmp`, file);
      for (const [path, { status, text }] of await everyDocument()) {
        expect(status, `${path} with the mistake of round ${round}`).toBe(500);
        // Astro's error overlay, which its script draws from the error the dev server sends.
        expect(text, path).toContain('<title>ContentError</title>');
      }
    }
    writeFileSync(file, good);
    for (const [path, { status }] of await everyDocument()) expect(status, `${path} once fixed`).toBe(200);
    saidOnce(3);
  });

  it('lets the page styles apply: inline dev styles are allowed, the rest of the policy is kept', async () => {
    const csp = (await get('/services')).headers.get('content-security-policy') ?? '';
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
  });
});
