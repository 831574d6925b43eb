/**
 * Lighthouse over the pages people compare firms by: `npm run lighthouse:pages`. Starts `npm start`
 * on a free port, runs Lighthouse 13 (default mobile config) in Debian's Chromium with WebMCP
 * enabled on /, /services, /case-studies, one case study, /agents and /proposal, prints the four
 * category scores per page and the WebMCP audits of /proposal with the tools the page declares,
 * and writes test-results/lighthouse-pages.json. Exits with 1 when a score is below 100 or a
 * WebMCP audit fails.
 *
 * Runs on Node 24 type stripping: erasable TypeScript only.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { launch } from 'chrome-launcher';
import { CHROME_FLAGS, CHROME_PATH } from './local-site/browser.ts';
import { htmlPages, root } from './local-site/dist.ts';
import { startSite } from './local-site/start-site.ts';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const WEBMCP_AUDITS = ['webmcp-form-coverage', 'webmcp-schema-validity', 'webmcp-registered-tools'];

const site = await startSite();
const caseStudy = htmlPages().find((p) => /^\/case-studies\/(?!archive\/)/.test(p.path))!.path;
const PAGES = ['/', '/services', '/case-studies', caseStudy, '/agents', '/proposal'];
const chrome = await launch({ chromePath: CHROME_PATH, chromeFlags: [...CHROME_FLAGS, '--enable-features=WebMCP'] });
const rows: { path: string; scores: Record<string, number | null>; failing: string[] }[] = [];
const webmcp: { id: string; title: string; score: number | null; details?: unknown }[] = [];
let version = '';
try {
  for (const path of PAGES) {
    const agentic = path === '/proposal';
    const run = await lighthouse(`${site.url}${path}`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: agentic ? [...CATEGORIES, 'agentic-browsing'] : CATEGORIES,
    });
    if (!run) throw new Error(`Lighthouse returned no result for ${path}`);
    const { lhr } = run;
    version = lhr.lighthouseVersion;
    const scores: Record<string, number | null> = {};
    const failing: string[] = [];
    for (const id of CATEGORIES) {
      const category = lhr.categories[id];
      scores[id] = category?.score == null ? null : Math.round(category.score * 100);
      for (const ref of category?.auditRefs ?? []) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1)
          failing.push(`${id}: ${audit.id} (${audit.score})`);
      }
    }
    if (agentic) {
      for (const id of WEBMCP_AUDITS) {
        const audit = lhr.audits[id];
        webmcp.push({ id, title: audit?.title ?? 'missing', score: audit?.score ?? null, details: audit?.details });
      }
    }
    rows.push({ path, scores, failing });
  }
} finally {
  chrome.kill();
  await site.stop();
}

const cell = (s: string | number | null, width: number) => String(s ?? 'n/a').padEnd(width);
console.log(`\nLighthouse ${version}, default (mobile) config, ${CHROME_PATH} --enable-features=WebMCP\n`);
console.log(`${cell('page', 60)}${CATEGORIES.map((c) => cell(c, 16)).join('')}`);
for (const r of rows)
  console.log(`${cell(r.path, 60)}${CATEGORIES.map((c) => cell(r.scores[c] ?? null, 16)).join('')}`);
for (const r of rows) for (const f of r.failing) console.log(`  ${r.path} ${f}`);
console.log('\nWebMCP on /proposal:');
for (const a of webmcp)
  console.log(`  ${a.id}: ${a.score === null ? 'not applicable' : a.score === 1 ? 'pass' : `fail (${a.score})`}`);
const tools =
  JSON.stringify(webmcp.map((a) => a.details)).match(
    /request_guidance|review_proposal_request|submit_proposal_request/g,
  ) ?? [];
console.log(`  tools listed: ${[...new Set(tools)].join(', ') || 'none'}`);

const out = join(root, 'test-results');
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, 'lighthouse-pages.json'),
  `${JSON.stringify({ lighthouse_version: version, chrome_flags: '--enable-features=WebMCP', pages: rows, webmcp }, null, 2)}\n`,
);
console.log('\nwritten: test-results/lighthouse-pages.json');
if (rows.some((r) => Object.values(r.scores).some((s) => s !== 100)) || webmcp.some((a) => a.score !== 1))
  process.exitCode = 1;
