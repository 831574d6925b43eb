import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../scripts/local-site/browser.ts';
import { htmlPages, root } from '../../scripts/local-site/dist.ts';
import { startSite, type RunningSite } from '../../scripts/local-site/start-site.ts';

// Every page as people see it, in Debian's Chromium against `npm start`: the header menu without
// JavaScript, both calls to action above the fold, no sideways scrolling at 320 px, the H1 in one
// place on every page, zero axe-core violations, the 404 page; and screenshots of every page at
// both sizes in test-results/.
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
const shots = join(root, 'test-results', 'pages');
let site: RunningSite;
let browser: Browser;
let paths: string[];

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  [site, browser] = await Promise.all([startSite(), launchBrowser()]);
  // The pages of the build this server serves; the 404 page is reached through an unknown path.
  paths = htmlPages(join(site.dir, 'dist'))
    .map((p) => p.path)
    .filter((p) => p !== '/404');
  if (paths.length < 10) throw new Error(`only ${paths.length} pages found in ${site.dir}/dist`);
});

afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

async function open(
  path: string,
  viewport: { width: number; height: number },
  javaScriptEnabled = true,
): Promise<Page> {
  const context = await browser.newContext({ viewport, javaScriptEnabled });
  const page = await context.newPage();
  page.on('close', () => void context.close());
  await page.goto(`${site.url}${path}`);
  return page;
}

const shotName = (path: string, size: string) =>
  `${path === '/' ? 'home' : path.slice(1).replace(/\//g, '_')}-${size}.png`;

/** True when the element's box lies wholly inside the first screen. */
const aboveTheFold = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight && r.width > 0;
    });

describe('the site in a browser', () => {
  it('the header fits one row on a phone with the brand mark, and its menu opens under its button without JavaScript', async () => {
    const page = await open('/services', PHONE, false);
    const bar = await page.locator('.site-header .bar').boundingBox();
    const cta = await page.locator('.site-header .cta').boundingBox();
    const brand = await page.locator('.site-header .brand').boundingBox();
    const mark = await page.locator('.site-header .brand img').boundingBox();
    const button = await page.locator('.menu summary').boundingBox();
    expect(bar!.height).toBeLessThan(64);
    expect(Math.abs(cta!.y - brand!.y)).toBeLessThan(16);
    expect(Math.abs(button!.y - brand!.y)).toBeLessThan(16);
    expect(mark!.width).toBeGreaterThanOrEqual(20);
    const menuLink = page.locator('.menu nav a', { hasText: 'Case studies' });
    expect(await menuLink.isVisible()).toBe(false);
    await page.click('.menu summary');
    expect(await menuLink.isVisible()).toBe(true);
    // Under its button, its right edge on the button's, within the screen, over a backdrop.
    const panel = (await page.locator('.menu nav').boundingBox())!;
    expect(panel.y).toBeGreaterThanOrEqual(button!.y + button!.height);
    expect(Math.abs(panel.x + panel.width - (button!.x + button!.width))).toBeLessThan(2);
    expect(panel.x).toBeGreaterThanOrEqual(0);
    const backdrop = await page
      .locator('.menu summary')
      .evaluate((el) => getComputedStyle(el, '::before').getPropertyValue('background-color'));
    expect(backdrop).toMatch(/^rgba\(20, 32, 43, 0\.4/);
    // A tap on the backdrop closes it, as a second tap on the button does.
    await page.mouse.click(10, PHONE.height - 10);
    expect(await menuLink.isVisible()).toBe(false);
    await page.click('.menu summary');
    await menuLink.click();
    await page.waitForURL(/\/case-studies$/);
    expect(await page.locator('h1').innerText()).toBe('Case studies');
    await page.close();

    const wide = await open('/services', DESKTOP, false);
    expect(await wide.locator('.nav-wide a', { hasText: 'Case studies' }).isVisible()).toBe(true);
    expect(await wide.locator('.menu').isVisible()).toBe(false);
    await wide.close();
  });

  it.each([
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const)('home shows the headline and both calls to action above the fold on a %s', async (_, viewport) => {
    const page = await open('/', viewport);
    expect(await aboveTheFold(page, 'main h1')).toBe(true);
    expect(await aboveTheFold(page, 'main .hero .button.primary[href="/proposal"]')).toBe(true);
    expect(await aboveTheFold(page, 'main .hero .button.secondary[href="/agents"]')).toBe(true);
    // Named as the page it opens is named in the navigation.
    expect(await page.locator('main .hero .button.secondary').innerText()).toBe('For AI agents');
    await page.close();
  });

  it('an unknown path answers 404 with the site frame', async () => {
    const res = await fetch(`${site.url}/no-such-page`);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const page = await open('/no-such-page', PHONE);
    expect(await page.locator('h1').innerText()).toBe('Page not found');
    expect(await page.locator('.site-header .cta').isVisible()).toBe(true);
    expect(await page.locator('.site-footer').isVisible()).toBe(true);
    await page.screenshot({ path: join(shots, '404-390.png'), fullPage: true });
    await page.close();
  });

  it('no page scrolls sideways at 320 px, every H1 starts at one place, and every page is screenshotted at both sizes', async () => {
    const overflowing: string[] = [];
    const h1x = new Map<string, Set<number>>();
    for (const [size, viewport] of [
      ['390', PHONE],
      ['1366', DESKTOP],
      ['320', { width: 320, height: 700 }],
    ] as const) {
      const page = await open('/', viewport);
      for (const path of paths) {
        await page.goto(`${site.url}${path}`);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        if (width > viewport.width) overflowing.push(`${path} at ${viewport.width}px: ${width}px wide`);
        const x = Math.round((await page.locator('main h1').first().boundingBox())!.x);
        h1x.set(size, (h1x.get(size) ?? new Set()).add(x));
        if (size !== '320') {
          // Lazy images load as they come near the screen: scroll through first, as a reader does.
          await page.evaluate(async () => {
            for (let y = 0; y < document.body.scrollHeight; y += 500) {
              window.scrollTo(0, y);
              await new Promise((r) => setTimeout(r, 20));
            }
            window.scrollTo(0, 0);
          });
          await page.waitForFunction(() => [...document.images].every((image) => image.complete));
          await page.screenshot({ path: join(shots, shotName(path, size)), fullPage: true });
        }
      }
      await page.close();
    }
    expect(overflowing).toEqual([]);
    // One layout rule: walking the navigation, the H1 does not move sideways.
    for (const [size, xs] of h1x) expect([...xs], `H1 x at ${size}px`).toHaveLength(1);
  }, 300_000);

  it('has no axe-core violations on any page, with the phone menu open too', async () => {
    const context = await browser.newContext({ bypassCSP: true, viewport: PHONE });
    const page = await context.newPage();
    const found: string[] = [];
    for (const path of [...paths, '/no-such-page']) {
      await page.goto(`${site.url}${path}`);
      if (path === '/') await page.click('.menu summary');
      await page.addScriptTag({ path: join(root, 'node_modules/axe-core/axe.min.js') });
      const violations = await page.evaluate(async () => {
        const axe = (
          window as unknown as {
            axe: { run: () => Promise<{ violations: { id: string; help: string; nodes: { target: unknown[] }[] }[] }> };
          }
        ).axe;
        return (await axe.run()).violations.map(
          (v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
        );
      });
      found.push(...violations.map((v) => `${path} ${v}`));
    }
    await context.close();
    expect(found).toEqual([]);
  });
});
