/**
 * After `astro build`: writes the proposal function's validators and knowledge (src/build/function-data.ts)
 * from the built contract, and moves the knowledge out of the built site.
 * Usage: node scripts/compile-contract.ts [distDir] [generatedDir] (defaults: dist, .generated).
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFunctionData, type FunctionData } from '../src/build/function-data.ts';

const root = fileURLToPath(new URL('../', import.meta.url));
const dist = resolve(root, process.argv[2] ?? 'dist');
const out = resolve(root, process.argv[3] ?? '.generated');

const readJson = (file: string) => JSON.parse(readFileSync(join(dist, file), 'utf8')) as unknown;
// The function's HTML replies reuse the site's hashed stylesheet.
const stylesheet = readdirSync(join(dist, '_astro')).find((f) => f.endsWith('.css'));
// ... and the site's header and footer, so a reply page sits in the same frame as every page.
const proposalPage = readFileSync(join(dist, 'proposal.html'), 'utf8');
const header = /<header class="site-header">[\s\S]*?<\/header>/.exec(proposalPage)?.[0];
const footer = /<footer class="site-footer">[\s\S]*?<\/footer>/.exec(proposalPage)?.[0];
if (!header || !footer)
  throw new Error('compile-contract: dist/proposal.html has no site header or footer to frame the reply pages');
// The reply is not /proposal itself: no link marked as the current page.
const frame = { header: header.replace(/ aria-current="page"/g, ''), footer };
const actions = writeFunctionData(out, {
  contract: readJson('api/proposal.json') as FunctionData['contract'],
  knowledge: { ...(readJson('build-data/knowledge.json') as FunctionData['knowledge']), frame },
  stylesheet: stylesheet && `/_astro/${stylesheet}`,
});
rmSync(join(dist, 'build-data'), { recursive: true, force: true });
console.log(`compile-contract: ${actions.length} validators and knowledge.json written`);
