/**
 * What the tests need from the machine besides npm packages, each with the command that installs
 * it on Debian or Ubuntu. README ("What you need"), CONTRIBUTING and .ci/run say the same; a unit
 * test keeps README's commands equal to these.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { CHROME_PATH } from './browser.ts';

export interface Prerequisite {
  name: string;
  /** What needs it. */
  neededBy: string;
  install: string;
  /** Undefined when present; otherwise where it was looked for and not found. */
  missing(): string | undefined;
}

export const JAVA: Prerequisite = {
  name: 'Java',
  neededBy: 'the built tests (the W3C Nu HTML Checker, npm vnu-jar, runs on it)',
  install: 'sudo apt-get install -y default-jre-headless',
  missing: () => (spawnSync('java', ['-version'], { stdio: 'ignore' }).status === 0 ? undefined : 'no `java` on PATH'),
};

export const CHROMIUM: Prerequisite = {
  name: 'Chromium',
  neededBy: 'the browser tests and npm run lighthouse',
  install: 'sudo apt-get install -y chromium',
  missing: () => {
    try {
      accessSync(CHROME_PATH, constants.X_OK);
      return undefined;
    } catch {
      return `nothing to run at ${CHROME_PATH} (CHROME_PATH names another Chromium)`;
    }
  },
};

/** One message naming every missing prerequisite and how to install it, or undefined when none is. */
export function missingPrerequisites(needed: readonly Prerequisite[]): string | undefined {
  const missing = needed.flatMap((p) => {
    const lookedFor = p.missing();
    return lookedFor ? [`- ${p.name}, for ${p.neededBy}: ${lookedFor}.\n  Install it: ${p.install}`] : [];
  });
  return missing.length > 0 ? `This machine lacks what the tests need:\n${missing.join('\n')}` : undefined;
}
