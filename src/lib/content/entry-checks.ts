/**
 * Checks over the prepared entries (placeholders filled in, links published) that the file checks
 * (./check.ts) cannot make: the content rules and ids used twice. Pure: each
 * returns problems as `content/<file>: <field>: <what to change>` lines, so the build can report
 * them all at once and tests can call them directly.
 */
import { findViolations, ruleHelp, type Identity } from './rules.ts';

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

/** Every passage, in frontmatter or body, that breaks a content rule (./rules.ts). */
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

/** Each item whose key an earlier item has: the item, the earlier one and the key. */
export function duplicates<T>(items: T[], key: (item: T) => string): [T, T, string][] {
  const seen = new Map<string, T>();
  return items.flatMap((item): [T, T, string][] => {
    const k = key(item);
    const other = seen.get(k);
    if (!other) seen.set(k, item);
    return other ? [[item, other, k]] : [];
  });
}

/** Two entries of one kind that claim the same id (`field` names it for the editor). */
export function duplicateProblems<T extends CheckedEntry>(items: T[], key: (item: T) => string, field: string) {
  return duplicates(items, key).map(
    ([item, other, k]) => `${item.file}: ${field} "${k}" is already used by ${other.file}`,
  );
}
