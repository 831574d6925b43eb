/** Schema errors for people: the file, the field, what was found, what is expected and how to fix it. */
import type { z } from 'astro/zod';
import { EntrySchema } from './entry-schema.ts';
import { nearest } from '../../text/nearest.ts';
import { fieldPosition, type Problem } from './problem.ts';

type Issue = z.core.$ZodIssue;

const FIELDS_BY_KIND = new Map<string, string[]>(
  EntrySchema.options.map((option) => [String(option.shape.kind.value), Object.keys(option.shape)]),
);
const KINDS = [...FIELDS_BY_KIND.keys()];

/** `tags` + [1] → "tags, item 2": lists are counted from 1 for people. */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const label = path.map((part, i) =>
    typeof part === 'number' ? `, item ${part + 1}` : `${i ? '.' : ''}${String(part)}`,
  );
  return label.join('') || '(frontmatter)';
}

const isoDate = (d: Date) => d.toISOString().slice(0, 10);

function describe(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  if (value === null) return 'an empty value';
  if (value instanceof Date) return `${isoDate(value)}, an unquoted date (YAML reads it as a date, not as text)`;
  if (typeof value === 'string')
    return value.trim() === '' ? 'empty text' : `"${value.length > 80 ? `${value.slice(0, 77)}...` : value}"`;
  if (Array.isArray(value)) return `a list of ${value.length} item(s)`;
  if (typeof value === 'object') return 'a group of fields';
  return typeof value === 'number' || typeof value === 'boolean' ? `${typeof value} ${value}` : typeof value;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list (one "- item" per line)',
  object: 'a group of fields',
};

function explain(issue: Issue, value: unknown, field: string): [expected: string, fix: string] {
  switch (issue.code) {
    case 'invalid_type': {
      const expected = TYPE_NAMES[issue.expected] ?? issue.expected;
      if (value instanceof Date)
        return ['a date written as text, YYYY-MM-DD', `put it in quotes: ${field}: "${isoDate(value)}"`];
      if (value === undefined) return [expected, `add the field: ${field}: ...`];
      if (issue.expected !== 'string') return [expected, `write ${field} as ${expected}`];
      const key = typeof issue.path.at(-1) === 'number' ? '- ' : `${field}: `;
      const written = typeof value === 'number' || typeof value === 'boolean' ? value : '...';
      return [expected, `put the value in quotes: ${key}"${written}"`];
    }
    case 'invalid_value':
    case 'invalid_union': {
      // The schema's one union is chosen by `kind`: a union issue is a wrong kind.
      const kind = issue.code === 'invalid_union';
      const options = kind ? KINDS : issue.values.map(String);
      const guess = typeof value === 'string' ? nearest(value, options) : undefined;
      const otherwise = kind
        ? 'set kind to what this file is (see docs/editing.md, "What each file is")'
        : 'use one of the values above';
      return [`one of: ${options.join(', ')}`, guess ? `did you mean "${guess}"?` : otherwise];
    }
    case 'too_small':
      return [
        expectation(issue.message),
        issue.origin === 'array' ? 'add at least one "- item" line' : 'write a value',
      ];
    case 'custom': {
      // The schema's own checks say how to fix what they find.
      const fix = (issue.params as { fix?: string } | undefined)?.fix;
      return [expectation(issue.message), fix ?? 'correct the value'];
    }
    default: {
      // Of the schema's patterns, only the date's message names YYYY-MM-DD.
      const date = issue.code === 'invalid_format' && /YYYY-MM-DD/.test(issue.message);
      return [expectation(issue.message), date ? 'write the date as "YYYY-MM-DD", in quotes' : 'correct the value'];
    }
  }
}

/** The schema's own words ("must list at least one item") as an expectation ("at least one item"). */
const expectation = (message: string) => message.replace(/^must (be )?/, '');

/** The closing `---` line of the frontmatter (line 1 when there is none). */
function frontmatterEnd(raw: string): { line: number; column: number } {
  const end = raw.split(/\r?\n/).indexOf('---', 1);
  return { line: end === -1 ? 1 : end + 1, column: 1 };
}

/** One problem per mistake in a file's frontmatter, at (given its text `raw`) the field's line and column. */
export function checkEntryData(file: string, data: Record<string, unknown>, raw = ''): Problem[] {
  // Each issue carries the value it is about (`input`; text already trimmed).
  const result = EntrySchema.safeParse(data, { reportInput: true });
  if (result.success) return [];
  const { issues } = result.error;
  const block = (path: readonly PropertyKey[], found: string, [expected, fix]: [string, string]): Problem => {
    // A field that is not there is added where the frontmatter ends.
    const at = (path.length > 0 ? fieldPosition(raw, String(path[0])) : undefined) ?? frontmatterEnd(raw);
    return { file, line: at?.line, column: at?.column, field: fieldLabel(path), found, expected, fix };
  };
  const kind = typeof data['kind'] === 'string' ? data['kind'] : undefined;
  const known = (kind && FIELDS_BY_KIND.get(kind)) || [];
  // A misspelt field also leaves its right name missing; the "did you mean" block says both.
  const meant = new Set(
    issues
      .flatMap((issue) => (issue.code === 'unrecognized_keys' ? issue.keys.map((key) => nearest(key, known)) : []))
      .filter(Boolean),
  );
  return issues.flatMap((issue) => {
    if (
      issue.code === 'invalid_type' &&
      issue.path.length === 1 &&
      meant.has(String(issue.path[0])) &&
      issue.input === undefined
    ) {
      return [];
    }
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => {
        const guess = nearest(key, known);
        return block([...issue.path, key], `a field this kind (${kind ?? 'unknown'}) does not have`, [
          `only these fields: ${known.join(', ')}`,
          guess ? `did you mean "${guess}"? Rename the field.` : 'remove the field, or move its text into the body',
        ]);
      });
    }
    // A wrong kind's issue carries the whole entry.
    const value = issue.code === 'invalid_union' ? data['kind'] : issue.input;
    return [block(issue.path, describe(value), explain(issue, value, fieldLabel(issue.path)))];
  });
}
