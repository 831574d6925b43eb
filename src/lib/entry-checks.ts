/**
 * Checks over the prepared entries (placeholders filled in, links published) that the file checks
 * (./content-check.ts) cannot make: the content rules, .mdx bodies, ids used twice. Pure: each
 * returns problems as `content/<file>: <field>: <what to change>` lines, so the build can report
 * them all at once and tests can call them directly.
 */
import { findViolations, ruleHelp, type Identity } from './content-rules.ts';

/** What the checks read of an entry: its frontmatter, its body, its file as editors name it. */
export interface CheckedEntry {
  data: object;
  body: string;
  file: string;
}

/** Every string in an entry's frontmatter, with the field path that holds it. */
function* stringFields(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* stringFields(v, `${path}[${i}]`);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) yield* stringFields(v, path ? `${path}.${k}` : k);
}

/** Every passage, in frontmatter or body, that breaks a content rule (./content-rules.ts). */
export function ruleProblems(entries: CheckedEntry[], identity: Identity): string[] {
  const problems: string[] = [];
  for (const entry of entries) {
    const texts: [string, string][] = [...stringFields(entry.data, ''), ['body', entry.body]];
    for (const [field, text] of texts) {
      for (const v of findViolations(text, identity)) {
        problems.push(`${entry.file}: ${field}: "${v.text}" breaks the rule "${v.rule}": ${ruleHelp(v.rule)}`);
      }
    }
  }
  return problems;
}

/**
 * Pages, twins and llms files render every body as the same markdown, so an .mdx body may use
 * markdown only: an import, an export or a component would reach readers as raw text.
 */
export function mdxProblems(entries: CheckedEntry[]): string[] {
  return entries.flatMap((entry) => {
    const jsx = entry.file.endsWith('.mdx') ? /^(?:import|export)\s|<[A-Z][\w.]*[\s/>]/m.exec(entry.body) : null;
    return jsx
      ? [
          `${entry.file}: body: "${jsx[0].trim()}": components, imports and exports are not supported; write plain markdown (the page, its markdown twin and llms-full.txt render the same text)`,
        ]
      : [];
  });
}

/** Two entries of one kind that claim the same id (`field` names it for the editor). */
export function duplicateProblems<T extends CheckedEntry>(
  items: T[],
  key: (item: T) => string,
  field: string,
): string[] {
  const seen = new Map<string, string>();
  const problems: string[] = [];
  for (const item of items) {
    const k = key(item);
    const other = seen.get(k);
    if (other) problems.push(`${item.file}: ${field} "${k}" is already used by ${other}`);
    else seen.set(k, item.file);
  }
  return problems;
}

/** Throws one error listing every problem; returns quietly when there is none. */
export function throwIfProblems(heading: string, problems: string[]): void {
  if (problems.length === 0) return;
  const error = new Error(`${heading} (${problems.length}):\n  ${problems.join('\n  ')}`);
  error.name = 'ContentError';
  throw error;
}
