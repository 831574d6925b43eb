/** Writes the twins (one loop: a route per twin is far slower) and the function's data once `astro build` is done. */
import type { AstroIntegration } from 'astro';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFrontmatter } from 'astro/markdown';
import { Ajv2020 } from 'ajv/dist/2020.js';
// CommonJS modules exporting their function as `module.exports` and `.default`: fine for Node and Vite.
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';
import { buildSync } from 'esbuild';
import { DOCUMENT_PATHS } from '../contract/paths.ts';
import { takeOver } from '../lib/handover.ts';

/** What the proposal function reads from `.generated/`; the dev preview writes it too. */
export interface FunctionData {
  /** The contract Astro built (GET /api/proposal, from the CDN): its request schemas become the validators. */
  contract: { actions: Record<string, { request_schema: object }> };
  knowledge: object;
}

/** ajv's ESM output still `require`s its code-point counter, which Node and Vite import differently. */
function asEsm(code: string): string {
  const inlined = code.replace(/require\("ajv\/dist\/runtime\/ucs2length"\)\.default/g, 'codePointLength');
  const other = /require\("[^"]+"\)/.exec(inlined);
  if (other) throw new Error(`function data: unsupported runtime dependency in generated validators: ${other[0]}`);
  const helper = 'function codePointLength(s) { let n = 0; for (const _ of s) n++; return n; }';
  return `${helper}\n${inlined.replace(/^"use strict";/, '')}`;
}

const MCP_SDK_ENTRY = fileURLToPath(new URL('../proposal/doors/mcp-sdk.ts', import.meta.url));
let mcpSdkBundle: string | undefined;

/**
 * The MCP SDK as one minified ESM file (src/proposal/doors/mcp-sdk.ts says why); the same on every call,
 * so a dev session bundles it once. Node built-ins stay imports; nothing else is left to resolve.
 */
function bundleMcpSdk(): string {
  mcpSdkBundle ??= buildSync({
    entryPoints: [MCP_SDK_ENTRY],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: ['node24'],
    minify: true,
    // The SDK's build for fetch runtimes (its `workerd` export condition): the same server, with the
    // @cfworker/json-schema validator (42 KB) in place of a bundled ajv (295 KB). The tools validate
    // nothing through it (src/proposal/doors/mcp.ts); only stdio, unused here, needs Node's process.
    conditions: ['workerd'],
    legalComments: 'eof',
    write: false,
    logLevel: 'silent',
  }).outputFiles[0]!.text;
  return mcpSdkBundle;
}

/** Atomic, so a reloading function never reads half a file; unchanged files are left alone (no needless reload). */
function writeAtomic(file: string, text: string): boolean {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return false;
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
  return true;
}

/** The request validators compiled here (none at cold start), their types and the JSON; returns what changed. */
export function writeFunctionData(outDir: string, { contract, knowledge }: FunctionData): string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: true, code: { source: true, esm: true } });
  addFormats(ajv, ['email']);
  const actions = Object.keys(contract.actions);
  for (const action of actions) ajv.addSchema(contract.actions[action]!.request_schema, action);
  const files = {
    'validators.mjs': asEsm(standaloneCode(ajv, Object.fromEntries(actions.map((a) => [a, a])))),
    // Resolved from the project's `.generated/` (a build writes to a temporary folder first).
    'validators.d.mts': `import type { Validators } from '../src/contract/requests.ts';\n${actions
      .map((name) => `export declare const ${name}: Validators['${name}'];`)
      .join('\n')}\n`,
    'mcp-sdk.mjs': bundleMcpSdk(),
    'mcp-sdk.d.mts': `export * from '../src/proposal/doors/mcp-sdk.ts';\n`,
    'knowledge.json': `${JSON.stringify(knowledge, null, 2)}\n`,
  };
  mkdirSync(outDir, { recursive: true });
  return Object.entries(files).flatMap(([name, text]) => (writeAtomic(join(outDir, name), text) ? [name] : []));
}

/** The function's data from a finished build: its HTML replies reuse the site's stylesheet, header and footer. */
function writeFunctionDataFromDist(distDir: string, outDir: string, knowledge: object): string[] {
  const stylesheet = readdirSync(join(distDir, '_astro')).find((f) => f.endsWith('.css'));
  const proposalPage = readFileSync(join(distDir, 'proposal.html'), 'utf8');
  const header = /<header class="site-header">[\s\S]*?<\/header>/.exec(proposalPage)?.[0];
  const footer = /<footer class="site-footer">[\s\S]*?<\/footer>/.exec(proposalPage)?.[0];
  if (!header || !footer)
    throw new Error('function data: dist/proposal.html has no site header or footer to frame the reply pages');
  // The reply is not /proposal itself: no link marked as the current page.
  const frame = { header: header.replace(/ aria-current="page"/g, ''), footer };
  return writeFunctionData(outDir, {
    contract: JSON.parse(
      readFileSync(join(distDir, `${DOCUMENT_PATHS.proposalApi}.json`), 'utf8'),
    ) as FunctionData['contract'],
    knowledge: { ...knowledge, frame, ...(stylesheet ? { stylesheet: `/_astro/${stylesheet}` } : {}) },
  });
}

/** Returns each page's canonical URL and last update. */
function writeTwinFiles(distDir: string, files: [string, string][]): Map<string, string> {
  const updated = new Map<string, string>();
  for (const [file, text] of files) {
    const { canonical_url, last_updated } = parseFrontmatter(text).frontmatter as Record<string, string>;
    updated.set(canonical_url!, last_updated!);
    const target = resolve(distDir, file);
    if (relative(distDir, target).startsWith('..')) throw new Error(`twin ${file} would be written outside dist/`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  return updated;
}

/** The integration, and each page's `last_updated` for @astrojs/sitemap (listed after it: asks once twins exist). */
export function buildOutputs(): AstroIntegration & { lastUpdated: (url: string) => string } {
  let updated = new Map<string, string>();
  return {
    name: 'build-outputs',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const distDir = fileURLToPath(dir);
        updated = writeTwinFiles(distDir, takeOver('twins'));
        logger.info(`${updated.size} markdown twins written`);
        const outDir = process.env.FUNCTION_DATA_DIR ?? join(dirname(distDir), '.generated');
        const written = writeFunctionDataFromDist(distDir, outDir, takeOver('knowledge'));
        logger.info(`function data: ${written.length > 0 ? written.join(', ') : 'nothing'} changed in ${outDir}`);
      },
    },
    lastUpdated: (url) => {
      const date = updated.get(url);
      if (!date) throw new Error(`sitemap: ${url} has no markdown twin, so no date it last changed`);
      return date;
    },
  };
}
