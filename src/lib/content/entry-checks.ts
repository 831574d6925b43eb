/** Checks of the prepared entries the file checks cannot make, each problem a `content/<file>: <field>: <fix>` line. */
import { findViolations, RULE_HELP, type Identity } from './rules.ts';
import { fieldLabel } from './entry-errors.ts';

/** Deep copy of frontmatter with every string passed through `map` (given its field, as ./entry-errors.ts names it). */
export function mapStrings(value: unknown, path: PropertyKey[], map: (text: string, field: string) => string): unknown {
  if (typeof value === 'string') return map(value, fieldLabel(path));
  if (Array.isArray(value)) return value.map((v, i) => mapStrings(v, [...path, i], map));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, [...path, k], map)]));
  }
  return value;
}

export function ruleProblems(entries: { data: object; body: string; file: string }[], identity: Identity): string[] {
  const problems: string[] = [];
  for (const entry of entries) {
    const check = (text: string, field: string) => {
      for (const v of findViolations(text, identity)) {
        problems.push(`${entry.file}: ${field}: "${v.text}" breaks the rule "${v.rule}": ${RULE_HELP[v.rule]}`);
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

export function duplicateProblems<T extends { file: string }>(items: T[], key: (item: T) => string, field: string) {
  return duplicates(items, key).map(
    ([item, other, k]) => `${item.file}: ${field} "${k}" is already used by ${other.file}`,
  );
}
