/**
 * Lighthouse scores: `npm run lighthouse` (node scripts/lighthouse.ts). Starts the site with `npm start` on
 * a free port, audits /, /services, /case-studies, one case study, /agents and /proposal with Lighthouse's default (mobile)
 * configuration in Debian's Chromium started with WebMCP enabled (without it the WebMCP audits
 * are "not applicable"), prints the five category scores per page and the state of each agentic
 * audit, and writes test-results/lighthouse.json. Exits with 1 when any score is below 100, the goal.
 *
 * Runs on Node 24 type stripping: erasable TypeScript only.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { launch } from 'chrome-launcher';
import { CHROME_FLAGS, CHROME_PATH } from './local-site/browser.ts';
import { htmlPages, root } from './local-site/dist.ts';
import { freePort } from './free-port.ts';
import { startSite } from './local-site/start-site.ts';

const caseStudy = htmlPages().find((p) => /^\/case-studies\/(?!archive\/)/.test(p.path))?.path;
if (caseStudy === undefined) throw new Error('dist/ has no case study page: run npm run build first');
const PAGES = ['/', '/services', '/case-studies', caseStudy, '/agents', '/proposal'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo', 'agentic-browsing'];
/** Chromium exposes WebMCP (navigator.modelContext, declarative form tools) only behind this flag. */
const WEBMCP_FLAG = '--enable-features=WebMCP';

interface PageResult {
  path: string;
  scores: Record<string, number | null>;
  /** Audits scoring below 1 in the five categories, so a score below 100 names its cause. */
  failing: { category: string; id: string; title: string; score: number | null }[];
  /** Each agentic-browsing audit: pass, fail or not applicable. */
  agentic: Record<string, string>;
}

// Built with its own local URL: agent documents and most links are absolute (the ai-catalog link
// is root-relative), and Lighthouse follows them, so they must point at this server.
const port = await freePort();
const site = await startSite({ SITE_URL: `http://127.0.0.1:${port}` }, undefined, undefined, port);
console.log(`npm start serves ${site.url} (pid ${site.pid})`);
const chrome = await launch({ chromePath: CHROME_PATH, chromeFlags: [...CHROME_FLAGS, WEBMCP_FLAG] });
const results: PageResult[] = [];
let version = '';
try {
  for (const path of PAGES) {
    const run = await lighthouse(`${site.url}${path}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
    });
    if (!run) throw new Error(`Lighthouse returned no result for ${path}`);
    const { lhr } = run;
    version = lhr.lighthouseVersion;
    const scores: Record<string, number | null> = {};
    const failing: PageResult['failing'] = [];
    for (const id of CATEGORIES) {
      const category = lhr.categories[id];
      scores[id] = category?.score === null || category === undefined ? null : Math.round(category.score * 100);
      for (const ref of category?.auditRefs ?? []) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) {
          failing.push({ category: id, id: audit.id, title: audit.title, score: audit.score });
        }
      }
    }
    const agentic: Record<string, string> = {};
    for (const ref of lhr.categories['agentic-browsing']?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      agentic[ref.id] =
        audit?.scoreDisplayMode === 'notApplicable'
          ? 'n/a'
          : audit?.score === 1
            ? 'pass'
            : `fail (${audit?.score ?? 'no score'})`;
    }
    results.push({ path, scores, failing, agentic });
    if (lhr.runtimeError) console.warn(`${path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  }
} finally {
  chrome.kill();
  await site.stop();
}

const cell = (s: string | number | null, width: number) => String(s ?? 'n/a').padEnd(width);
// The first column fits the longest path (a case study's).
const first = Math.max(12, ...results.map((r) => r.path.length + 2));
console.log(`\nLighthouse ${version}, default (mobile) config, ${CHROME_PATH} ${WEBMCP_FLAG}\n`);
console.log(`${cell('page', first)}${CATEGORIES.map((c) => cell(c, 18)).join('')}`);
for (const r of results)
  console.log(`${cell(r.path, first)}${CATEGORIES.map((c) => cell(r.scores[c] ?? null, 18)).join('')}`);
const agenticIds = Object.keys(results[0]?.agentic ?? {});
console.log(`\nagentic-browsing audits\n${cell('page', first)}${agenticIds.map((id) => cell(id, 26)).join('')}`);
for (const r of results)
  console.log(`${cell(r.path, first)}${agenticIds.map((id) => cell(r.agentic[id] ?? '', 26)).join('')}`);
for (const r of results) {
  for (const f of r.failing) console.log(`  ${r.path} ${f.category}: ${f.id} (${f.title}) scored ${f.score}`);
}

const out = join(root, 'test-results');
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, 'lighthouse.json'),
  `${JSON.stringify({ lighthouse_version: version, config: 'default (mobile)', chrome: `${CHROME_PATH} ${WEBMCP_FLAG}`, generated_at: new Date().toISOString(), pages: results }, null, 2)}\n`,
);
console.log(`\nwritten: test-results/lighthouse.json`);
if (results.some((r) => Object.values(r.scores).some((s) => s !== 100))) process.exitCode = 1;
