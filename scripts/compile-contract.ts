/**
 * After `astro build`: compiles the request schemas of the published contract (dist/api/proposal.json)
 * into standalone ajv validators, and moves the function's knowledge out of dist/, both into
 * .generated/ for the proposal function. The function therefore validates exactly what GET
 * /api/proposal publishes, and compiles no schema at cold start.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';

const root = new URL('../', import.meta.url);
const dist = new URL('dist/', root);
const out = new URL('.generated/', root);

const contract = JSON.parse(readFileSync(new URL('api/proposal.json', dist), 'utf8')) as {
  actions: Record<'guide' | 'summarize' | 'submit', { request_schema: object }>;
};

const ajv = new Ajv2020({ allErrors: true, strict: true, code: { source: true, esm: true } });
const exports: Record<string, string> = {};
for (const [action, { request_schema }] of Object.entries(contract.actions)) {
  ajv.addSchema(request_schema, action);
  exports[action] = action;
}

/** ajv's ESM output still `require`s its small runtime helpers; turn those into imports. */
function asEsm(code: string): string {
  const imports = new Map<string, string>();
  const body = code.replace(/require\("(ajv\/dist\/runtime\/[\w-]+)"\)/g, (_, path: string) => {
    const name = `runtime_${imports.size}`;
    if (![...imports.values()].includes(path)) imports.set(name, path);
    return [...imports.entries()].find(([, p]) => p === path)![0];
  });
  const header = [...imports.entries()].map(([name, path]) => `import ${name} from "${path}.js";`).join('\n');
  return `${header}\n${body.replace(/^"use strict";/, '')}`;
}

mkdirSync(out, { recursive: true });
writeFileSync(new URL('validators.mjs', out), asEsm(standaloneCode.default(ajv, exports)));
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
