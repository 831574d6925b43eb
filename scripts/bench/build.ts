/**
 * Item 1: build time and peak memory of the site beside the Astro floor, in one run. Ours is the
 * real content/, and content/ plus 1,000 and 10,000 generated posts (temp copies, CONTENT_DIR);
 * the floor is the same Astro building the same generated posts in a tiny project with
 * @astrojs/sitemap (./floor.ts). Every build is `astro build --force` into a temp folder, timed
 * spawn to exit, its peak RSS reported by the build process itself (./report-peak-rss.ts).
 */
import { cpSync, existsSync, globSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { writeFloorProject } from './floor.ts';
import { peakRssBytes } from './peak-rss.ts';
import { writeGeneratedPosts } from './posts.ts';
import { childEnv, progress, root, run } from './process.ts';
import { bytes, bytesExact, int, median, ms, table } from './stats.ts';

/** Generated posts added to content/ (ours) and built alone (the floor, for all but 0). */
export const POSTS = [0, 1000, 10000] as const;
/** Builds per variant; the median is reported. */
export const BUILD_REPEATS = 3;

export interface HtmlSize {
  files: number;
  rawBytes: number;
  gzipBytes: number;
  largest: { file: string; rawBytes: number; gzipBytes: number } | null;
}

export interface BuildRun {
  project: 'ours' | 'floor';
  label: string;
  posts: number;
  /** Markdown files in the content that was built. */
  contentFiles: number;
  /** Median wall time of the builds, spawn to exit. */
  totalMs: number;
  runsMs: number[];
  /** Median peak RSS of the build process. */
  peakRssBytes: number;
  peakRssRuns: number[];
  htmlPages: number;
  /** All files in the out dir. */
  outputFiles: number;
  html: HtmlSize;
}

export interface FloorComparison {
  posts: number;
  floorMs: number;
  oursMs: number;
  wallRatio: number;
  floorPeakBytes: number;
  oursPeakBytes: number;
  peakRatio: number;
}

/** The llms files of the largest build: how /llms.txt and /llms-full.txt stay bounded as posts grow. */
export interface LlmsFullSizes {
  posts: number;
  indexBytes: number;
  wholeBytes: number;
  sectionFiles: number;
  largestSectionFile: { file: string; bytes: number } | null;
}

export interface BuildResult {
  command: string;
  floorCommand: string;
  repeats: number;
  runs: BuildRun[];
  comparison: FloorComparison[];
  /** Marginal build time per added post from 1,000 to 10,000 posts, ours and the floor's. */
  marginal: { oursMsPerPost: number; floorMsPerPost: number; ratio: number } | null;
  llmsFull: LlmsFullSizes | null;
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

function llmsFullSizes(outDir: string, posts: number): LlmsFullSizes {
  const sections = globSync('llms-full/*.txt', { cwd: outDir }).map((file) => ({
    file,
    bytes: statSync(join(outDir, file)).size,
  }));
  return {
    posts,
    indexBytes: statSync(join(outDir, 'llms.txt')).size,
    wholeBytes: statSync(join(outDir, 'llms-full.txt')).size,
    sectionFiles: sections.length,
    largestSectionFile: sections.sort((a, b) => b.bytes - a.bytes)[0] ?? null,
  };
}

const ASTRO_BIN = join(root, 'node_modules/astro/bin/astro.mjs');
const PEAK_RSS_PRELOAD = join(root, 'scripts/bench/report-peak-rss.ts');

interface Variant {
  project: 'ours' | 'floor';
  posts: number;
  label: string;
  /** The folder `astro build` runs in. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  contentFiles: number;
  times: number[];
  peaks: number[];
  last: Pick<BuildRun, 'htmlPages' | 'outputFiles' | 'html'> | null;
}

export async function benchBuild(): Promise<BuildResult> {
  const work = mkdtempSync(join(tmpdir(), 'kestrel-bench-build-'));
  const variants: Variant[] = [];
  let llmsFull: LlmsFullSizes | null = null;
  try {
    for (const posts of POSTS) {
      const contentDir = join(work, `content-${posts}`);
      cpSync(join(root, 'content'), contentDir, { recursive: true });
      writeGeneratedPosts(contentDir, posts);
      variants.push({
        project: 'ours',
        posts,
        label: posts === 0 ? 'ours: real content' : `ours: content + ${int(posts)} posts`,
        cwd: root,
        // Its own content cache, so the project's node_modules/.astro is left alone.
        env: childEnv({ CONTENT_DIR: contentDir, ASTRO_CACHE_DIR: join(work, `cache-${posts}`) }),
        contentFiles: globSync('**/*.{md,mdx}', { cwd: contentDir }).length,
        times: [],
        peaks: [],
        last: null,
      });
      if (posts === 0) continue;
      const floorDir = join(work, `floor-${posts}`);
      writeFloorProject(floorDir, posts);
      variants.push({
        project: 'floor',
        posts,
        label: `floor: ${int(posts)} posts`,
        cwd: floorDir,
        env: childEnv(),
        contentFiles: posts,
        times: [],
        peaks: [],
        last: null,
      });
    }
    // Repetitions go round the variants, so slow phases of a shared machine hit every variant.
    for (let rep = 1; rep <= BUILD_REPEATS; rep++) {
      for (const v of variants) {
        progress(`build ${rep}/${BUILD_REPEATS}: ${v.label} (${int(v.contentFiles)} content files)`);
        const outDir = join(work, `dist-${v.project}-${v.posts}-${rep}`);
        const result = await run(
          process.execPath,
          ['--import', PEAK_RSS_PRELOAD, ASTRO_BIN, 'build', '--force', '--outDir', outDir],
          { cwd: v.cwd, env: v.env },
        );
        const peak = peakRssBytes(result.stderr);
        if (result.code !== 0 || peak === null) {
          throw new Error(
            `astro build failed for ${v.label} (exit ${result.code}):\n${(result.stdout + result.stderr).slice(-3000)}`,
          );
        }
        v.times.push(result.ms);
        v.peaks.push(peak);
        v.last = {
          htmlPages: globSync('**/*.html', { cwd: outDir }).length,
          outputFiles: globSync('**/*', { cwd: outDir }).filter((f) => statSync(join(outDir, f)).isFile()).length,
          html: htmlSize(outDir),
        };
        if (v.project === 'ours' && v.posts === Math.max(...POSTS)) llmsFull = llmsFullSizes(outDir, v.posts);
        rmSync(outDir, { recursive: true, force: true });
      }
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const runs: BuildRun[] = variants.map((v) => ({
    project: v.project,
    label: v.label,
    posts: v.posts,
    contentFiles: v.contentFiles,
    totalMs: median(v.times),
    runsMs: v.times,
    peakRssBytes: median(v.peaks),
    peakRssRuns: v.peaks,
    ...(v.last as NonNullable<Variant['last']>),
  }));
  const find = (project: BuildRun['project'], posts: number) =>
    runs.find((r) => r.project === project && r.posts === posts);
  const comparison: FloorComparison[] = POSTS.filter((n) => n > 0).flatMap((posts) => {
    const ours = find('ours', posts);
    const floor = find('floor', posts);
    return ours && floor
      ? [
          {
            posts,
            floorMs: floor.totalMs,
            oursMs: ours.totalMs,
            wallRatio: ours.totalMs / floor.totalMs,
            floorPeakBytes: floor.peakRssBytes,
            oursPeakBytes: ours.peakRssBytes,
            peakRatio: ours.peakRssBytes / floor.peakRssBytes,
          },
        ]
      : [];
  });
  const [small, big] = comparison;
  const marginal =
    small && big
      ? (() => {
          const added = big.posts - small.posts;
          const oursMsPerPost = (big.oursMs - small.oursMs) / added;
          const floorMsPerPost = (big.floorMs - small.floorMs) / added;
          return { oursMsPerPost, floorMsPerPost, ratio: oursMsPerPost / floorMsPerPost };
        })()
      : null;
  const dist = join(root, 'dist');
  return {
    command: `CONTENT_DIR=<tmp>/content-N ${process.execPath} --import scripts/bench/report-peak-rss.ts node_modules/astro/bin/astro.mjs build --force --outDir <tmp>/dist`,
    floorCommand: `(in <tmp>/floor-N, written by scripts/bench/floor.ts) the same command without CONTENT_DIR`,
    repeats: BUILD_REPEATS,
    runs,
    comparison,
    marginal,
    llmsFull,
    distHtml: existsSync(dist) ? htmlSize(dist) : null,
  };
}

const gb = (b: number) => `${(b / 1024 ** 3).toFixed(2)} GB`;

export function printBuild(r: BuildResult): void {
  console.log(
    table(
      `1. Build time and peak memory (astro build --force; median of ${r.repeats} builds each, interleaved)`,
      [
        'build',
        'files in',
        'wall (median)',
        'all runs',
        'peak RSS',
        'HTML pages',
        'files out',
        'HTML gzip',
        'largest page (gzip)',
      ],
      r.runs.map((run) => [
        run.label,
        int(run.contentFiles),
        ms(run.totalMs),
        run.runsMs.map((t) => (t / 1000).toFixed(1)).join(' / ') + ' s',
        gb(run.peakRssBytes),
        int(run.htmlPages),
        int(run.outputFiles),
        bytes(run.html.gzipBytes),
        run.html.largest ? `${run.html.largest.file} ${bytes(run.html.largest.gzipBytes)}` : 'n/a',
      ]),
    ),
  );
  console.log(
    table(
      '1b. Ours beside the Astro floor (same Astro, same generated posts, @astrojs/sitemap), measured in this run',
      ['N posts', 'floor wall', 'ours wall', 'ratio', 'floor peak', 'ours peak', 'ratio'],
      r.comparison.map((c) => [
        int(c.posts),
        `${(c.floorMs / 1000).toFixed(2)} s`,
        `${(c.oursMs / 1000).toFixed(2)} s`,
        `${c.wallRatio.toFixed(2)}x`,
        gb(c.floorPeakBytes),
        gb(c.oursPeakBytes),
        `${c.peakRatio.toFixed(2)}x`,
      ]),
    ),
  );
  console.log(`command: ${r.command}`);
  console.log(`floor: ${r.floorCommand}`);
  if (r.marginal) {
    console.log(
      `marginal cost per added post, 1,000 to 10,000: ours ${r.marginal.oursMsPerPost.toFixed(2)} ms, floor ${r.marginal.floorMsPerPost.toFixed(2)} ms (ratio ${r.marginal.ratio.toFixed(2)}x)`,
    );
  }
  if (r.llmsFull) {
    const l = r.llmsFull;
    console.log(
      `llms files at ${int(l.posts)} posts: /llms.txt ${bytesExact(l.indexBytes)} (LLMS_TXT_SECTION_MAX_LINKS links a section at most), /llms-full.txt ${bytesExact(l.wholeBytes)}, ${l.sectionFiles} section files under /llms-full/, largest ${l.largestSectionFile?.file} ${bytesExact(l.largestSectionFile?.bytes ?? 0)} (limits: src/lib/agents/llms-limits.ts)`,
    );
  }
  const real = r.runs.find((run) => run.project === 'ours' && run.posts === 0);
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
