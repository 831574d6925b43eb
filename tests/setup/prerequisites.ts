/**
 * vitest globalSetup, before any test of the run: names a missing Java or Chromium, with the
 * command that installs it, for the projects this run includes (a missing Java otherwise shows as
 * a JSON parse error in the built tests, a missing Chromium as a bare path in the e2e tests).
 */
import type { TestProject } from 'vitest/node';
import { CHROMIUM, JAVA, missingPrerequisites, type Prerequisite } from '../../scripts/local-site/prerequisites.ts';

const NEEDS: Record<string, Prerequisite[]> = { built: [JAVA], e2e: [CHROMIUM] };

export default function setup(project: TestProject): void {
  const needed = new Set(project.vitest.projects.flatMap((p) => NEEDS[p.name] ?? []));
  const message = missingPrerequisites([...needed]);
  if (message) throw new Error(message);
}
