/**
 * What the proposal function reads from `.generated/`: the request schemas of the published
 * contract compiled into standalone ajv validators, and the knowledge the actions answer from.
 * Written when `astro build` is done (./build-outputs.ts), and by the dev preview at start and on
 * every content change (./dev-preview.ts), so the function validates exactly what GET
 * /api/proposal publishes and compiles no schema at cold start.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
// Both CommonJS modules export their function as `module.exports` and as `.default`, so the
// default import is the function under Node's loader and under Vite's interop alike.
import standaloneCode from 'ajv/dist/standalone/index.js';
import addFormats from 'ajv-formats';
import { DOCUMENT_PATHS } from '../contract/paths.ts';

export interface FunctionData {
  /** The published contract (GET /api/proposal), which the function also serves. */
  contract: { actions: Record<string, { request_schema: object }> };
  /** The function's knowledge (src/lib/handover.ts). */
  knowledge: object;
  /** Site path of the hashed stylesheet the function's HTML replies reuse, when there is one. */
  stylesheet?: string | undefined;
}

/**
 * ajv's ESM output still `require`s its runtime helper for string lengths, which Node and Vite
 * import differently. The helper only counts code points, so it is inlined; any other runtime
 * dependency fails the build rather than producing a validator that breaks at run time.
 */
function asEsm(code: string): string {
  const inlined = code.replace(/require\("ajv\/dist\/runtime\/ucs2length"\)\.default/g, 'codePointLength');
  const other = /require\("[^"]+"\)/.exec(inlined);
  if (other) throw new Error(`function data: unsupported runtime dependency in generated validators: ${other[0]}`);
  const helper = 'function codePointLength(s) { let n = 0; for (const _ of s) n++; return n; }';
  return `${helper}\n${inlined.replace(/^"use strict";/, '')}`;
}

/**
 * Writes a file whole or not at all, so a function reloading mid-write never reads half of it;
 * an unchanged file is left alone, so the dev server does not reload the function for nothing.
 * Returns whether it wrote.
 */
function writeAtomic(file: string, text: string): boolean {
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return false;
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, file);
  return true;
}

/** Writes validators.mjs, validators.d.mts, contract.json and knowledge.json into `outDir`; returns those that changed. */
export function writeFunctionData(outDir: string, { contract, knowledge, stylesheet }: FunctionData): string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: true, code: { source: true, esm: true } });
  // ajv-formats' maintained address check (its regular expression is inlined into the validators).
  addFormats(ajv, ['email']);
  const actions = Object.keys(contract.actions);
  for (const action of actions) ajv.addSchema(contract.actions[action]!.request_schema, action);
  const files = {
    'validators.mjs': asEsm(standaloneCode(ajv, Object.fromEntries(actions.map((a) => [a, a])))),
    // Each validator is a type guard for its request type, which is read off the same schema. The
    // declarations are read where the data ends up, the project's `.generated/` (a build writes to
    // a temporary folder first).
    'validators.d.mts': `import type { Validators } from '../src/contract/requests.ts';\n${actions
      .map((name) => `export declare const ${name}: Validators['${name}'];`)
      .join('\n')}\n`,
    // GET /api/proposal: the function answers it (its path takes GET for /mcp's 405), with these bytes.
    'contract.json': `${JSON.stringify(contract, null, 2)}\n`,
    'knowledge.json': `${JSON.stringify({ ...knowledge, ...(stylesheet ? { stylesheet } : {}) }, null, 2)}\n`,
  };
  mkdirSync(outDir, { recursive: true });
  return Object.entries(files).flatMap(([name, text]) => (writeAtomic(join(outDir, name), text) ? [name] : []));
}

/** Writes the function's data from a finished build in `distDir` and the knowledge its pages computed. */
export function writeFunctionDataFromDist(
  distDir: string,
  outDir: string,
  knowledge: FunctionData['knowledge'],
): string[] {
  // The function's HTML replies reuse the site's hashed stylesheet ...
  const stylesheet = readdirSync(join(distDir, '_astro')).find((f) => f.endsWith('.css'));
  // ... and the site's header and footer, so a reply page sits in the same frame as every page.
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
    knowledge: { ...knowledge, frame },
    stylesheet: stylesheet && `/_astro/${stylesheet}`,
  });
}
