/** Errors located at the content file they name: Astro's overlay shows that file, not a stack trace. */
import { join } from 'node:path';
import { CONTENT_DIR } from './project-dirs.ts';

/** The first `content/<file>` (with `:<line>` when given) a message names. */
const NAMED_FILE = /\bcontent\/([\w./-]+\.mdx?)(?::(\d+))?/;

export class ContentError extends Error {
  readonly loc: { file: string; line: number; column: number } | undefined;
  readonly title = 'Content needs fixing';
  constructor(message: string) {
    super(message);
    this.name = 'ContentError';
    const named = NAMED_FILE.exec(message);
    this.loc = named ? { file: join(CONTENT_DIR, named[1]!), line: Number(named[2] ?? 1), column: 1 } : undefined;
    if (this.loc) this.stack = '';
  }
}

export function throwIfProblems(heading: string, problems: string[]): void {
  if (problems.length > 0) throw new ContentError(`${heading} (${problems.length}):\n  ${problems.join('\n  ')}`);
}
