/**
 * The GitHub workflow runs the same environment and the same script as `.ci/run` on the CI
 * machine, and the operating docs name that environment: these tests keep the three from drifting
 * apart. How the workflow caches, keeps artifacts or times out is its own text, read in review,
 * not pinned here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { DOC_HOMES } from '../helpers/doc-homes.ts';

const root = join(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
}
interface Job {
  container?: string | { image: string };
  steps: Step[];
}
interface Workflow {
  jobs: Record<string, Job>;
}

const workflow = load(read('.github/workflows/ci.yml')) as Workflow;
const jobs = Object.values(workflow.jobs);
const job = jobs[0];
if (jobs.length !== 1 || job === undefined) throw new Error('.github/workflows/ci.yml: expected exactly one job');
const image = typeof job.container === 'string' ? job.container : job.container?.image;

describe('.github/workflows/ci.yml', () => {
  it(`runs in the container image ${DOC_HOMES.ciImage} names`, () => {
    const named = /container image `([^`]+)`/.exec(read(DOC_HOMES.ciImage))?.[1];
    expect(named, `${DOC_HOMES.ciImage} names the CI container image as: container image \`<image>\``).toBeDefined();
    expect(image).toBe(named);
  });

  it('runs on the Node major the project pins (the `node` package and .nvmrc)', () => {
    const pkg = JSON.parse(read('package.json')) as { devDependencies: Record<string, string> };
    const pinned = /\d+/.exec(pkg.devDependencies['node'] ?? '')?.[0];
    expect(image).toMatch(new RegExp(`^node:${pinned}-`));
    expect(read('.nvmrc').trim()).toBe(pinned);
  });

  it('has `bash .ci/run` as its one command, so install and test steps live in one place', () => {
    const commands = job.steps.flatMap((s) => (s.run === undefined ? [] : [s.run.trim()]));
    expect(commands).toEqual(['bash .ci/run']);
  });
});
