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

/**
 * The oldest Chromium whose WebMCP (`document.modelContext.executeTool(tool, input)`) the workspace
 * test drives: 150, which some Debian images still carry, refuses its arguments. .ci/run upgrades
 * an older one.
 */
export const MIN_CHROMIUM_MAJOR = 156;

/** The major version `chromium --version` prints ("Chromium 156.0.8078.108 built on ..."), or undefined. */
export function chromiumMajor(versionText: string): number | undefined {
  const major = /Chromium (\d+)\./.exec(versionText)?.[1];
  return major === undefined ? undefined : Number(major);
}

export const CHROMIUM: Prerequisite = {
  name: `Chromium ${MIN_CHROMIUM_MAJOR} or later`,
  neededBy: 'the browser tests and npm run lighthouse',
  install: 'sudo apt-get update && sudo apt-get install -y chromium',
  missing: () => {
    try {
      accessSync(CHROME_PATH, constants.X_OK);
    } catch {
      return `nothing to run at ${CHROME_PATH} (CHROME_PATH names another Chromium)`;
    }
    const printed = spawnSync(CHROME_PATH, ['--version'], { encoding: 'utf8' }).stdout ?? '';
    const major = chromiumMajor(printed);
    // A build that names itself otherwise (CHROME_PATH at another Chromium) is taken as it is.
    return major !== undefined && major < MIN_CHROMIUM_MAJOR ? `${CHROME_PATH} is Chromium ${major}` : undefined;
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
