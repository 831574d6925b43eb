/** Errors located at the content file they name: Astro's overlay shows that file, not a stack trace. */
import { join } from 'node:path';
import { CONTENT_DIR } from './project-dirs.ts';
import { formatProblems, type Problem } from './problem.ts';

export class ContentError extends Error {
  readonly loc: { file: string; line: number; column: number } | undefined;
  readonly title = 'Content needs fixing';
  /** Shown under the problems instead of a hint guessed from their words. */
  readonly hint =
    'Fix each problem in the file, at the line and column it names. docs/editing.md, "What the build checks", explains every kind.';
  readonly problems: readonly Problem[];
  constructor(problems: readonly Problem[]) {
    // By file, then from the top of each: the order an editor works through them.
    const sorted = [...problems].sort(
      (a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0),
    );
    super(formatProblems(sorted));
    this.name = 'ContentError';
    this.problems = sorted;
    // The overlay opens the first problem's file at its line and column.
    const first = sorted.find((p) => p.file.startsWith('content/'));
    this.loc = first
      ? {
          file: join(CONTENT_DIR, first.file.slice('content/'.length)),
          line: first.line ?? 1,
          column: first.column ?? 1,
        }
      : undefined;
    if (this.loc) this.stack = '';
  }
}

export function throwIfProblems(problems: readonly Problem[]): void {
  if (problems.length > 0) throw new ContentError(problems);
}
