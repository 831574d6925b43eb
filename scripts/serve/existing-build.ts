/**
 * `npm start -- --no-build` serves the build already in dist/ and .generated/ instead of building
 * again. netlify serve always runs the build command of netlify.toml (`npm run build`); under this
 * variable scripts/build.ts leaves the existing build in place and returns at once.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const EXISTING_BUILD_ENV = 'NPM_START_EXISTING_BUILD';

/** What `--no-build` needs: the pages and the function's data, as npm run build leaves them. */
export function missingBuild(root: string): string | undefined {
  const needed = ['dist/index.html', '.generated/knowledge.json', '.generated/validators.mjs'];
  const missing = needed.filter((file) => !existsSync(join(root, file)));
  return missing.length > 0 ? missing.join(', ') : undefined;
}
