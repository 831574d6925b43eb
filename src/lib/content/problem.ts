/**
 * One content problem, whatever found it: the file, the line and column it starts at, the field,
 * what was found, what is expected and how to fix it. Every check reports these, and the build
 * and the dev preview print them all at once, each block headed alike.
 */

export interface Problem {
  /** `content/<path>`, as editors know it. */
  file: string;
  /** From 1; absent when the problem is the file as a whole. */
  line?: number | undefined;
  /** From 1, on `line`. */
  column?: number | undefined;
  /** The frontmatter field (`tags, item 2`), `body`, or `(file)` and `(frontmatter)` for the file's shape. */
  field: string;
  found: string;
  expected: string;
  fix: string;
}

/** `content/x.md:12:5` then the four lines, each label padded so the values align. */
export function formatProblem(p: Problem): string {
  const at = p.line === undefined ? '' : `:${p.line}:${p.column ?? 1}`;
  return [
    `${p.file}${at}`,
    `  field:    ${p.field}`,
    `  found:    ${p.found}`,
    `  expected: ${p.expected}`,
    `  fix:      ${p.fix}`,
  ].join('\n');
}

/** The heading and every block: what the build prints and the dev preview's overlay shows. */
export function formatProblems(problems: readonly Problem[]): string {
  const n = problems.length;
  return `Content needs fixing (${n} problem${n === 1 ? '' : 's'}):\n\n${problems.map(formatProblem).join('\n\n')}\n`;
}

/** Line and column (from 1) of a character offset in `text`. */
export function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Where `passage` (text as published, placeholders filled in) was written in `raw`, from `from`
 * on: words may be split across lines (YAML folds long values), and a filled-in value may have
 * been written as its placeholder (`values`: "AWS" → "{provider}").
 */
export function locate(
  raw: string,
  passage: string,
  values: Record<string, string> = {},
  from = 0,
): { line: number; column: number } | undefined {
  const words = passage.trim().split(/\s+/).filter(Boolean).slice(0, 8);
  if (words.length === 0) return undefined;
  const byValue = Object.entries(values).sort(([a], [b]) => b.length - a.length);
  const pattern = words
    .map((word) => {
      let out = escapeRegExp(word);
      for (const [value, placeholder] of byValue) {
        if (value && word.includes(value))
          out = out.split(escapeRegExp(value)).join(`(?:${escapeRegExp(value)}|${escapeRegExp(placeholder)})`);
      }
      return out;
    })
    .join('\\s+');
  const re = new RegExp(pattern, 'g');
  re.lastIndex = from;
  const m = re.exec(raw);
  return m ? position(raw, m.index) : undefined;
}

/** Line and column of a top-level frontmatter field's value (or of its key, when the value is on later lines). */
export function fieldPosition(raw: string, key: string | undefined): { line: number; column: number } | undefined {
  if (key === undefined) return undefined;
  const lines = raw.split(/\r?\n/);
  const end = lines.indexOf('---', 1);
  const at = lines.slice(0, end === -1 ? undefined : end).findIndex((l) => l.startsWith(`${key}:`));
  if (at === -1) return undefined;
  const value = /^[^:]+:[ \t]*/.exec(lines[at]!)![0].length;
  const rest = lines[at]!.slice(value);
  return { line: at + 1, column: rest === '' || /^[|>]/.test(rest) ? 1 : value + 1 };
}
