/**
 * Astro's dev server logs a failed request twice (once raw, once formatted), and again for every
 * request while the content has the same mistake. An editor needs it once: this filter passes the
 * dev server's output through and drops an error block that repeats the last one printed, until
 * a page is served again or a different error comes.
 *
 * Runs on Node 24 type stripping: erasable TypeScript only.
 */

/** A log line of Astro's logger: `HH:MM:SS [label] ...`. */
const LOG_LINE = /^(?:\d\d:\d\d:\d\d )?\[(\w[\w-]*)\]/;
// eslint-disable-next-line no-control-regex -- ANSI colour codes are control characters
const ANSI = /\u001b\[[0-9;]*m/g;

/** Text of a block for comparison: no colours, no time of day, no hint or stack section. */
function essence(block: string[]): string {
  const lines = block.map((line) => line.replace(ANSI, '').replace(/^\d\d:\d\d:\d\d /, ''));
  const end = lines.findIndex((line) => /^\s*(Hint|Stack trace|Location):/.test(line));
  return lines
    .slice(0, end === -1 ? undefined : end)
    .join('\n')
    .trim();
}

export interface ErrorsOnce {
  /** Takes one line of output; returns the lines to print now. */
  line(line: string): string[];
  /** The output went quiet: returns an error block held back to see whether it continued. */
  idle(): string[];
}

export function errorsOnce(): ErrorsOnce {
  let block: string[] | undefined;
  let last: string | undefined;
  const flush = (): string[] => {
    if (!block) return [];
    const text = essence(block);
    const printed = text === last ? [] : block;
    last = text;
    block = undefined;
    return printed;
  };
  const take = (line: string): string[] => {
    const plain = line.replace(ANSI, '');
    const label = LOG_LINE.exec(plain)?.[1];
    if (label === 'ERROR') {
      const out = flush();
      block = [line];
      return out;
    }
    if (block && label === undefined) {
      block.push(line);
      return [];
    }
    const out = flush();
    // A page served means the mistake was fixed: the next error is news again.
    if (label !== undefined && /^[23]\d\d$/.test(label)) last = undefined;
    return [...out, line];
  };
  return { line: take, idle: flush };
}
