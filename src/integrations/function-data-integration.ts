/**
 * Writes the proposal function's validators and knowledge (./function-data.ts) once `astro build`
 * is done, from the contract the build published and the knowledge its pages handed over
 * (./handover.ts), as Starlight runs Pagefind over
 * a finished build. The data goes beside the site it was built from (`dist/` → `.generated/`),
 * so a fixture build elsewhere never touches the project's own; `npm run build` (scripts/build.ts)
 * points FUNCTION_DATA_DIR at its temporary folder, so a failed build never replaces the last good
 * `.generated/`.
 */
import type { AstroIntegration } from 'astro';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFunctionDataFromDist } from './function-data.ts';
import { takeOver } from './handover.ts';

export function functionData(): AstroIntegration {
  return {
    name: 'function-data',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const distDir = fileURLToPath(dir);
        const outDir = process.env.FUNCTION_DATA_DIR ?? join(dirname(distDir), '.generated');
        const actions = writeFunctionDataFromDist(distDir, outDir, { ...takeOver('knowledge') });
        logger.info(`${actions.length} validators and knowledge.json written`);
      },
    },
  };
}
