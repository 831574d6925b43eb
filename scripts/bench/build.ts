/**
 * Item 1: build time of the site for the real content and for the content plus 100 and 1,000
 * generated posts, each from a temp copy of content/ (CONTENT_DIR) into a temp --outDir, the way
 * tests/built/content-errors.test.ts builds fixtures. Also the gzipped size of the HTML.
 */
import { cpSync, existsSync, globSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { writeGeneratedPosts } from './posts.ts';
import { childEnv, progress, root, run } from './process.ts';
import { bytes, bytesExact, int, median, ms, table } from './stats.ts';

export const EXTRA_POSTS = [0, 100, 1000] as const;
/** Builds per variant; the median is reported. */
export const BUILD_REPEATS = 3;

export interface HtmlSize {
  files: number;
  rawBytes: number;
  gzipBytes: number;
  largest: { file: string; rawBytes: number; gzipBytes: number } | null;
}

export interface BuildRun {
  label: string;
  extraPosts: number;
  /** Markdown files in the content copy that was built. */
  contentFiles: number;
  /** Median wall time of the builds, spawn to exit. */
  totalMs: number;
  runsMs: number[];
  htmlPages: number;
  msPerPage: number;
  /** All files in the out dir. */
  outputFiles: number;
  html: HtmlSize;
}

export interface BuildResult {
  command: string;
  repeats: number;
  runs: BuildRun[];
  /** (time with 1,000 posts - time of the real content) / 1,000. */
  marginalMsPerAddedPost: number | null;
  /** HTML of the project's own dist/, when present (should equal the real-content run). */
  distHtml: HtmlSize | null;
}

/** Total raw and gzipped (zlib level 6, like a typical CDN/nginx) size of every .html under `dir`. */
export function htmlSize(dir: string): HtmlSize {
  const files = globSync('**/*.html', { cwd: dir }).sort();
  let rawBytes = 0;
  let gzipBytes = 0;
  let largest: HtmlSize['largest'] = null;
  for (const file of files) {
    const data = readFileSync(join(dir, file));
    const gz = gzipSync(data, { level: 6 }).byteLength;
    rawBytes += data.byteLength;
    gzipBytes += gz;
    if (largest === null || gz > largest.gzipBytes) largest = { file, rawBytes: data.byteLength, gzipBytes: gz };
  }
  return { files: files.length, rawBytes, gzipBytes, largest };
}

const ASTRO_BIN = join(root, 'node_modules/astro/bin/astro.mjs');
/** The content-layer cache astro build keeps; --force rebuilds it, so it is restored afterwards. */
const DATA_STORE = join(root, 'node_modules/.astro/data-store.json');

export async function benchBuild(): Promise<BuildResult> {
  const work = mkdtempSync(join(tmpdir(), 'kestrel-bench-build-'));
  const savedStore = existsSync(DATA_STORE) ? readFileSync(DATA_STORE) : null;
  const args = (outDir: string) => [ASTRO_BIN, 'build', '--force', '--outDir', outDir];
  const variants = EXTRA_POSTS.map((extraPosts) => ({
    extraPosts,
    contentDir: join(work, `content-${extraPosts}`),
    label: extraPosts === 0 ? 'real content' : `content + ${int(extraPosts)} posts`,
    contentFiles: 0,
    times: [] as number[],
    last: null as Omit<BuildRun, 'label' | 'extraPosts' | 'contentFiles' | 'totalMs' | 'runsMs' | 'msPerPage'> | null,
  }));
  try {
    for (const v of variants) {
      cpSync(join(root, 'content'), v.contentDir, { recursive: true });
      writeGeneratedPosts(v.contentDir, v.extraPosts);
      v.contentFiles = globSync('**/*.{md,mdx}', { cwd: v.contentDir }).length;
    }
    // Repetitions go round the variants, so slow phases of a shared machine hit every variant.
    for (let rep = 1; rep <= BUILD_REPEATS; rep++) {
      for (const v of variants) {
        progress(`build ${rep}/${BUILD_REPEATS}: ${v.label} (${v.contentFiles} content files)`);
        const outDir = join(work, `dist-${v.extraPosts}-${rep}`);
        const result = await run(process.execPath, args(outDir), { env: childEnv({ CONTENT_DIR: v.contentDir }) });
        if (result.code !== 0) {
          throw new Error(
            `astro build failed for ${v.label} (exit ${result.code}):\n${(result.stdout + result.stderr).slice(-3000)}`,
          );
        }
        v.times.push(result.ms);
        v.last = {
          htmlPages: globSync('**/*.html', { cwd: outDir }).length,
          outputFiles: globSync('**/*', { cwd: outDir }).filter((f) => statSync(join(outDir, f)).isFile()).length,
          html: htmlSize(outDir),
        };
        rmSync(outDir, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
    if (savedStore !== null) writeFileSync(DATA_STORE, savedStore);
  }
  const runs: BuildRun[] = variants.map((v) => {
    const last = v.last as NonNullable<typeof v.last>;
    const totalMs = median(v.times);
    return {
      label: v.label,
      extraPosts: v.extraPosts,
      contentFiles: v.contentFiles,
      totalMs,
      runsMs: v.times,
      msPerPage: totalMs / last.htmlPages,
      ...last,
    };
  });
  const base = runs.find((r) => r.extraPosts === 0);
  const big = runs.find((r) => r.extraPosts === 1000);
  const dist = join(root, 'dist');
  return {
    command: `CONTENT_DIR=<tmp>/content-N ${process.execPath} node_modules/astro/bin/astro.mjs build --force --outDir <tmp>/dist-N`,
    repeats: BUILD_REPEATS,
    runs,
    marginalMsPerAddedPost: base && big ? (big.totalMs - base.totalMs) / 1000 : null,
    distHtml: existsSync(dist) ? htmlSize(dist) : null,
  };
}

export function printBuild(r: BuildResult): void {
  console.log(
    table(
      `1. Build time (astro build --force: content-layer cache cleared; median of ${r.repeats} builds each)`,
      [
        'content',
        'files in',
        'total (median)',
        'all runs',
        'HTML pages',
        'ms / page',
        'files out',
        'HTML raw',
        'HTML gzip',
        'largest page (gzip)',
      ],
      r.runs.map((run) => [
        run.label,
        int(run.contentFiles),
        ms(run.totalMs),
        run.runsMs.map((t) => (t / 1000).toFixed(1)).join(' / ') + ' s',
        int(run.htmlPages),
        `${run.msPerPage.toFixed(1)} ms`,
        int(run.outputFiles),
        bytes(run.html.rawBytes),
        bytes(run.html.gzipBytes),
        run.html.largest ? `${run.html.largest.file} ${bytes(run.html.largest.gzipBytes)}` : 'n/a',
      ]),
    ),
  );
  console.log(`command: ${r.command}`);
  if (r.marginalMsPerAddedPost !== null) {
    console.log(
      `marginal cost: ${r.marginalMsPerAddedPost.toFixed(2)} ms of build time per added post (1,000-post run minus real content, / 1,000)`,
    );
  }
  const real = r.runs.find((run) => run.extraPosts === 0);
  if (real) {
    const h = real.html;
    console.log(
      `real build HTML: ${h.files} pages, ${bytesExact(h.rawBytes)} raw, ${bytesExact(h.gzipBytes)} gzipped (level 6); ` +
        `largest gzipped: ${h.largest?.file} ${bytesExact(h.largest?.gzipBytes ?? 0)} (raw ${bytes(h.largest?.rawBytes ?? 0)})`,
    );
  }
  if (r.distHtml && real && r.distHtml.gzipBytes !== real.html.gzipBytes) {
    console.log(
      `note: the existing dist/ differs from a fresh build of content/ (dist/ HTML gzip ${bytesExact(r.distHtml.gzipBytes)}): dist/ is stale.`,
    );
  }
}
