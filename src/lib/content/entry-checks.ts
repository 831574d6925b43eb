/** Checks of the prepared entries the file checks cannot make, each a problem located in the file as written. */
import { findViolations, RULE_HELP, RULE_EXPECTED, type Identity } from './rules.ts';
import { fieldLabel } from './entry-errors.ts';
import { fieldPosition, locate, type Problem } from './problem.ts';

/** Deep copy of frontmatter with every string passed through `map` (given its field, as ./entry-errors.ts names it). */
export function mapStrings(value: unknown, path: PropertyKey[], map: (text: string, field: string) => string): unknown {
  if (typeof value === 'string') return map(value, fieldLabel(path));
  if (Array.isArray(value)) return value.map((v, i) => mapStrings(v, [...path, i], map));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, [...path, k], map)]));
  }
  return value;
}

/** An entry as the checks see it: its data and body with placeholders filled, and the file as written. */
export interface CheckedEntry {
  data: object;
  body: string;
  file: string;
  /** The file's text as written, to give each problem its line and column. */
  raw?: string;
}

/** Where a passage of `field` was written: found in the text, else the field's own line, else line 1. */
function where(entry: CheckedEntry, field: string, passage: string, values: Record<string, string>) {
  const raw = entry.raw ?? '';
  const bodyStart = field === 'body' ? raw.indexOf('\n---', 3) + 4 : 0;
  const key = /^[^.,]+/.exec(field)?.[0];
  return (
    locate(raw, passage, values, Math.max(0, bodyStart)) ??
    (field === 'body' ? undefined : fieldPosition(raw, key)) ?? { line: 1, column: 1 }
  );
}

/** `values`: each filled-in placeholder's text and how it was written ("AWS" → "{provider}"), to find the passage. */
export function ruleProblems(
  entries: CheckedEntry[],
  identity: Identity,
  values: Record<string, string> = {},
): Problem[] {
  const problems: Problem[] = [];
  for (const entry of entries) {
    const check = (text: string, field: string) => {
      for (const v of findViolations(text, identity)) {
        const matched = text.slice(v.index, v.index + v.length);
        problems.push({
          file: entry.file,
          ...where(entry, field, matched, values),
          field,
          found: `"${v.text}"`,
          expected: RULE_EXPECTED[v.rule],
          fix: RULE_HELP[v.rule],
        });
      }
      return text;
    };
    mapStrings(entry.data, [], check);
    check(entry.body, 'body');
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

/** `field` names the frontmatter field that holds the key (`id`, `page`). */
export function duplicateProblems<T extends { file: string; raw?: string }>(
  items: T[],
  key: (item: T) => string,
  field: string,
  what = `${field}`,
): Problem[] {
  return duplicates(items, key).map(([item, other, k]) => ({
    file: item.file,
    ...(fieldPosition(item.raw ?? '', field) ?? { line: 1, column: 1 }),
    field,
    found: `${what} "${k}", which ${other.file} already uses`,
    expected: `a ${what} no other file uses`,
    fix: `keep one of the two files, or give this one another ${field}`,
  }));
}
