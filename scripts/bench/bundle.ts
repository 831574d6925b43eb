/**
 * Item 3: the function as Netlify ships it, measured on what ships (scripts/shipped-function.ts:
 * the packager with netlify.toml's settings); its zip size, file count and the cold import of the
 * shipped function file, in fresh `node` processes. Beside it, the floor: a no-op V2 function
 * packed the same way, since the packager adds its own telemetry and bootstrap files (over 300 KB
 * zipped) to every V2 function; zip minus floor is the part that is ours. A V2 function (default
 * export + config) is traced with nft whatever node_bundler says, so an esbuild bundle shows what
 * a single pre-bundled file would weigh.
 */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { packagerOptions, packFunction, SHIPPED_ENTRY, functionsSettings } from '../shipped-function.ts';
import { childEnv, progress, root, run } from './process.ts';
import { bytes, bytesExact, median, ms, table } from './stats.ts';
import { EXAMPLE_REQUESTS } from '../../src/contract/contract.ts';

export const COLD_RUNS = 20;

/** CJS_SHIM of @netlify/zip-it-and-ship-it (runtimes/node/utils/esm_cjs_compat.js), verbatim. */
const CJS_SHIM = `
import {createRequire as ___nfyCreateRequire} from "module";
import {fileURLToPath as ___nfyFileURLToPath} from "url";
import {dirname as ___nfyPathDirname} from "path";
let __filename=___nfyFileURLToPath(import.meta.url);
let __dirname=___nfyPathDirname(___nfyFileURLToPath(import.meta.url));
let require=___nfyCreateRequire(import.meta.url);
`;

export interface ColdImport {
  runs: number[];
  median: number;
  max: number;
}

/** One cold request: a fresh process imports the shipped function and answers one request. */
export interface ColdRequest {
  label: string;
  /** Import plus the request, per run. */
  runs: number[];
  median: number;
  status: number;
  /** Module files of the MCP path (src/proposal/doors/mcp*.ts, the bundled SDK) the process loaded. */
  mcpModules: string[];
}

export interface ShippedResult {
  /** The bundler the packager chose, and why (e.g. nft, "v2-nft"). */
  bundler: string;
  reason: string;
  zipBytes: number;
  files: number;
  coldImport: ColdImport;
  /** A cold POST /api/proposal (guide) and a cold POST /mcp (tools/list), on the unpacked zip. */
  coldRequests: ColdRequest[];
  /** The no-op V2 function packed the same way: the packager's own files, in every V2 zip. */
  floorZipBytes: number;
  floorFiles: number;
  /** netlify.toml's included_files (the negated ones leave traced files out). */
  includedFiles: string[];
  /** The checkout's node_modules is a symlink (a worktree sharing another's): the zip holds the link. */
  linkedModules: boolean;
}

export interface BundleResult {
  shipped: ShippedResult;
  esbuildMs: number;
  bytes: number;
  gzipBytes: number;
  /** Bytes in the bundle by package (or project folder), largest first. */
  topInputs: { name: string; bytes: number }[];
  coldImport: ColdImport;
  /** The same measure for the unbundled source, loaded by Node's type stripping (for comparison). */
  coldImportSource: ColdImport;
  /** Time of the whole `node` process of a cold import of the bundle (spawn to exit). */
  processMedianMs: number;
  options: string;
}

/** Size by package: node_modules/<pkg> or the project folder of each input. */
function byPackage(inputs: Record<string, { bytesInOutput: number }>): { name: string; bytes: number }[] {
  const totals = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    const name = pkg
      ? (pkg[1] as string)
      : path
          .replace(/^(?:\.\.\/)*/, '')
          .split('/')
          .slice(0, 2)
          .join('/');
    totals.set(name, (totals.get(name) ?? 0) + bytesInOutput);
  }
  return [...totals].map(([name, b]) => ({ name, bytes: b })).sort((a, b) => b.bytes - a.bytes);
}

/** Spawns `node` COLD_RUNS times; each reports performance.now() around one dynamic import. */
async function coldImports(file: string, cwd: string): Promise<{ imports: ColdImport; processMs: number[] }> {
  const code = `const t0 = performance.now(); const m = await import(${JSON.stringify(pathToFileURL(file).href)}); const t1 = performance.now(); if (typeof m.default !== 'function') throw new Error('no default export'); console.log(JSON.stringify({ ms: t1 - t0 }));`;
  const runs: number[] = [];
  const processMs: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const r = await run(process.execPath, ['--input-type=module', '-e', code], { cwd, env: childEnv() });
    if (r.code !== 0) throw new Error(`cold import of ${file} failed:\n${r.stderr.slice(-2000)}`);
    runs.push((JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as { ms: number }).ms);
    processMs.push(r.ms);
  }
  return { imports: { runs, median: median(runs), max: Math.max(...runs) }, processMs };
}

/** Runs of each cold request: each is a fresh process. */
const COLD_REQUEST_RUNS = 5;

/** What a cold request counts as MCP code: the endpoint's lazy module folder and the bundled SDK. */
const MCP_MODULE = /mcp-sdk\.mjs$|@modelcontextprotocol\//;

/**
 * Imports the shipped function in a fresh process and sends it one request, recording every module
 * file the process loads (module.registerHooks): a POST /api/proposal must load no MCP module.
 */
async function coldRequest(
  file: string,
  cwd: string,
  label: string,
  path: string,
  body: unknown,
): Promise<ColdRequest> {
  const code = `
import { registerHooks } from 'node:module';
const loaded = [];
registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
const t0 = performance.now();
const m = await import(${JSON.stringify(pathToFileURL(file).href)});
const res = await m.default(new Request('http://localhost${path}', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: ${JSON.stringify(JSON.stringify(body))} }));
await res.text();
console.log(JSON.stringify({ ms: performance.now() - t0, status: res.status, loaded }));`;
  const runs: number[] = [];
  let last = { status: 0, loaded: [] as string[] };
  for (let i = 0; i < COLD_REQUEST_RUNS; i++) {
    const r = await run(process.execPath, ['--input-type=module', '-e', code], { cwd, env: childEnv() });
    if (r.code !== 0) throw new Error(`cold ${label} failed:\n${r.stderr.slice(-2000)}`);
    const out = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as {
      ms: number;
      status: number;
      loaded: string[];
    };
    runs.push(out.ms);
    last = out;
  }
  const mcpModules = last.loaded
    .filter((url) => MCP_MODULE.test(url))
    .map((url) => relative(cwd, new URL(url).pathname));
  return { label, runs, median: median(runs), status: last.status, mcpModules };
}

const countFiles = (dir: string): number =>
  readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;

/** A no-op V2 function in its own folder, packed with the same bundler: the packager's floor. */
async function packFloor(work: string): Promise<{ zipBytes: number; files: number }> {
  const base = join(work, 'floor');
  mkdirSync(join(base, 'netlify/functions'), { recursive: true });
  writeFileSync(join(base, 'package.json'), '{"type":"module"}');
  const source = join(base, 'netlify/functions/noop.mts');
  writeFileSync(source, "export default async () => new Response('{}');\nexport const config = { path: '/noop' };\n");
  const settings = { ...functionsSettings(), includedFiles: [] };
  const options = (archiveFormat: 'zip' | 'none') => ({
    ...packagerOptions(archiveFormat, settings),
    basePath: base,
    repositoryRoot: base,
  });
  const zipped = await packFunction(join(work, 'floor-zip'), 'zip', source, options('zip'));
  const unpacked = await packFunction(join(work, 'floor-dir'), 'none', source, options('none'));
  return { zipBytes: statSync(zipped.path).size, files: countFiles(unpacked.path) };
}

async function benchShipped(work: string): Promise<ShippedResult> {
  progress('bundle: zip-it-and-ship-it, as netlify build does, and the no-op floor');
  const zipped = await packFunction(join(work, 'zip'), 'zip');
  const unpacked = await packFunction(join(work, 'dir'), 'none');
  const floor = await packFloor(work);
  progress(`bundle: ${COLD_RUNS} cold imports of the shipped function file`);
  const shipped = await coldImports(join(unpacked.path, SHIPPED_ENTRY), unpacked.path);
  progress(`bundle: ${COLD_REQUEST_RUNS} cold POST /api/proposal and ${COLD_REQUEST_RUNS} cold POST /mcp`);
  const entry = join(unpacked.path, SHIPPED_ENTRY);
  const coldRequests = [
    await coldRequest(entry, unpacked.path, 'POST /api/proposal (guide)', '/api/proposal', EXAMPLE_REQUESTS.guide),
    await coldRequest(entry, unpacked.path, 'POST /mcp (tools/list)', '/mcp', {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
    }),
  ];
  return {
    coldRequests,
    bundler: zipped.bundler ?? 'unknown',
    reason: zipped.bundlerReason ?? '',
    zipBytes: statSync(zipped.path).size,
    files: countFiles(unpacked.path),
    coldImport: shipped.imports,
    floorZipBytes: floor.zipBytes,
    floorFiles: floor.files,
    includedFiles: functionsSettings().includedFiles,
    linkedModules: lstatSync(join(unpacked.path, 'node_modules'), { throwIfNoEntry: false })?.isSymbolicLink() ?? false,
  };
}

export async function benchBundle(): Promise<BundleResult> {
  const work = mkdtempSync(join(tmpdir(), 'kestrel-bench-bundle-'));
  try {
    const shipped = await benchShipped(work);
    const outfile = join(work, 'proposal.mjs');
    progress('bundle: esbuild');
    const t0 = performance.now();
    const result = await build({
      entryPoints: [join(root, 'netlify/functions/proposal.mts')],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: ['node24'],
      minify: false,
      banner: { js: CJS_SHIM },
      resolveExtensions: ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts', '.json'],
      metafile: true,
      logLevel: 'silent',
    });
    const esbuildMs = performance.now() - t0;
    const code = readFileSync(outfile);
    const output = Object.values(result.metafile.outputs)[0];

    progress(`bundle: ${COLD_RUNS} cold imports of the bundle, then of the unbundled source`);
    // Run from the temp folder: the bundle must not need node_modules.
    const bundled = await coldImports(outfile, work);
    const source = await coldImports(join(root, 'netlify/functions/proposal.mts'), root);
    return {
      shipped,
      esbuildMs,
      bytes: code.byteLength,
      gzipBytes: gzipSync(code, { level: 6 }).byteLength,
      topInputs: output ? byPackage(output.inputs).slice(0, 8) : [],
      coldImport: bundled.imports,
      coldImportSource: source.imports,
      processMedianMs: median(bundled.processMs),
      options: `esbuild ${relative(root, join(root, 'netlify/functions/proposal.mts'))} --bundle --platform=node --format=esm --target=node24 --banner:js=<Netlify CJS shim> (no minify; builtins external)`,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function printBundle(r: BundleResult): void {
  const s = r.shipped;
  console.log(
    table(
      `3. The function as Netlify ships it (zip-it-and-ship-it: ${s.bundler}${s.reason ? `, ${s.reason}` : ''}) and its cold import (${COLD_RUNS} fresh node processes)`,
      ['measure', 'value'],
      [
        ['floor: a no-op V2 function, zipped the same way', bytesExact(s.floorZipBytes)],
        ['shipped zip', bytesExact(s.zipBytes)],
        ['ours: shipped zip minus floor', bytesExact(s.zipBytes - s.floorZipBytes)],
        ['shipped zip / floor', `${(s.zipBytes / s.floorZipBytes).toFixed(2)}x`],
        ['files in it (floor)', `${s.files} (${s.floorFiles})`],
        ['cold import of the shipped function file, median', ms(s.coldImport.median)],
        ['cold import of the shipped function file, max', ms(s.coldImport.max)],
        ...s.coldRequests.flatMap((c): [string, string][] => [
          [`cold ${c.label}: import + reply, median of ${c.runs.length}`, `${ms(c.median)} (HTTP ${c.status})`],
          [
            `  MCP modules it loaded`,
            c.mcpModules.length === 0 ? 'none' : `${c.mcpModules.length}: ${c.mcpModules.join(', ')}`,
          ],
        ]),
      ],
    ),
  );
  if (s.linkedModules)
    console.log(
      'WARNING: node_modules is a symlink here, so the zip holds the link, not the packages: sizes are not what ships',
    );
  const left = s.includedFiles.filter((f) => f.startsWith('!')).map((f) => f.slice(1));
  const added = s.includedFiles.filter((f) => !f.startsWith('!'));
  console.log(`left out of the trace (netlify.toml included_files): ${left.join(', ') || 'nothing'}`);
  console.log(`added to the trace (netlify.toml included_files): ${added.join(', ') || 'nothing'}`);
  console.log(
    table(
      `3b. For comparison, one esbuild bundle of the same entry (${ms(r.esbuildMs)} to bundle), not what ships`,
      ['measure', 'value'],
      [
        ['bundle size', bytesExact(r.bytes)],
        ['bundle size gzipped (level 6)', bytesExact(r.gzipBytes)],
        ['cold import of bundle, median', ms(r.coldImport.median)],
        ['cold import of bundle, max', ms(r.coldImport.max)],
        ['node process incl. import, median', ms(r.processMedianMs)],
        ['(compare) cold import of unbundled .mts source, median', ms(r.coldImportSource.median)],
        ['(compare) cold import of unbundled .mts source, max', ms(r.coldImportSource.max)],
      ],
    ),
  );
  console.log(
    `largest contributors to the bundle: ${r.topInputs.map((i) => `${i.name} ${bytes(i.bytes)}`).join(', ')}`,
  );
  console.log(`command: ${r.options}`);
  console.log(
    `cold import: node --input-type=module -e "t0=performance.now(); await import('<tmp>/proposal.mjs'); performance.now()-t0"`,
  );
  console.log(`cold import runs (ms): ${r.coldImport.runs.map((x) => x.toFixed(1)).join(', ')}`);
}
