/**
 * After `astro build`: compiles the request schemas of the published contract (dist/api/proposal.json)
 * into standalone ajv validators, and moves the function's knowledge out of dist/, both into
 * .generated/ for the proposal function. The function therefore validates exactly what GET
 * /api/proposal publishes, and compiles no schema at cold start.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneModule from 'ajv/dist/standalone/index.js';
import addFormatsModule from 'ajv-formats';

// A CommonJS module: under Node's ESM loader its default import is the whole `exports` object.
const standaloneCode = (standaloneModule as unknown as { default?: typeof standaloneModule }).default ?? standaloneModule;
const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;

const root = new URL('../', import.meta.url);
const dist = new URL('dist/', root);
const out = new URL('.generated/', root);

const contract = JSON.parse(readFileSync(new URL('api/proposal.json', dist), 'utf8')) as {
  actions: Record<'guide' | 'summarize' | 'submit', { request_schema: object }>;
};

const ajv = new Ajv2020({ allErrors: true, strict: true, code: { source: true, esm: true } });
// ajv-formats' maintained address check (its regular expression is inlined into the validators).
addFormats(ajv, ['email']);
const exports: Record<string, string> = {};
for (const [action, { request_schema }] of Object.entries(contract.actions)) {
  ajv.addSchema(request_schema, action);
  exports[action] = action;
}

/**
 * ajv's ESM output still `require`s its runtime helper for string lengths, which Node and Vite
 * import differently. The helper only counts code points, so it is inlined; any other runtime
 * dependency fails the build rather than producing a validator that breaks at run time.
 */
function asEsm(code: string): string {
  const inlined = code.replace(/require\("ajv\/dist\/runtime\/ucs2length"\)\.default/g, 'codePointLength');
  const other = /require\("[^"]+"\)/.exec(inlined);
  if (other) throw new Error(`compile-contract: unsupported runtime dependency in generated validators: ${other[0]}`);
  const helper = 'function codePointLength(s) { let n = 0; for (const _ of s) n++; return n; }';
  return `${helper}\n${inlined.replace(/^"use strict";/, '')}`;
}

mkdirSync(out, { recursive: true });
writeFileSync(new URL('validators.mjs', out), asEsm(standaloneCode(ajv, exports)));
writeFileSync(
  new URL('validators.d.mts', out),
  `import type { ErrorObject } from 'ajv';\nexport interface Validator { (data: unknown): boolean; errors?: ErrorObject[] | null }\n${Object.keys(exports)
    .map((name) => `export declare const ${name}: Validator;`)
    .join('\n')}\n`,
);
// The function's HTML replies reuse the site's hashed stylesheet.
const knowledge = JSON.parse(readFileSync(new URL('build-data/knowledge.json', dist), 'utf8')) as Record<string, unknown>;
const stylesheet = readdirSync(new URL('_astro/', dist)).find((f) => f.endsWith('.css'));
writeFileSync(new URL('knowledge.json', out), `${JSON.stringify({ ...knowledge, ...(stylesheet ? { stylesheet: `/_astro/${stylesheet}` } : {}) }, null, 2)}\n`);
rmSync(new URL('build-data/', dist), { recursive: true, force: true });
console.log(`compile-contract: ${Object.keys(exports).length} validators and knowledge.json written to .generated/`);
