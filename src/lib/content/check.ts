/** Checks every content file before Astro reads it, reporting all problems at once in words an editor can act on. */
import { existsSync, globSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CORE_SCHEMA, load, mergeTag, timestampTag } from 'js-yaml';
import { slug } from 'github-slugger';
import { checkEntryData, fieldLabel } from './entry-errors.ts';
import { duplicates } from './entry-checks.ts';
import { bodyFirstLine, filePath, isOtherSite, isRootRelative, scanLinks } from './links.ts';
import { nearest } from '../../text/nearest.ts';
import { position, type Problem } from './problem.ts';

/** The entry id, as Astro's glob loader derives it from a file path: each segment slugged, no extension. */
const entryId = (path: string) =>
  path
    .replace(/\.mdx?$/, '')
    .split('/')
    .map((segment) => slug(segment))
    .join('/');

/**
 * YAML as Astro's glob loader reads it (js-yaml's default schema: an unquoted date is a date), the
 * same in the loader and in page code, whichever js-yaml a bundle would otherwise resolve.
 */
const SCHEMA = CORE_SCHEMA.withTags([timestampTag, mergeTag]);
/** The frontmatter block, as Astro finds it. */
const FRONTMATTER = /(?:^\uFEFF?|^\s*\n)---([\s\S]*?\n)---/;

/** Frontmatter and body, read as Astro's glob loader reads them. */
function readFile(shown: string, raw: string): { data: Record<string, unknown>; body: string } | Problem {
  try {
    const rawFrontmatter = FRONTMATTER.exec(raw)?.[1] ?? '';
    const parsed = rawFrontmatter === '' ? undefined : load(rawFrontmatter, { schema: SCHEMA });
    const frontmatter = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
    const content = raw.replace(`---${rawFrontmatter}---`, '');
    if (rawFrontmatter === '')
      return {
        file: shown,
        line: 1,
        column: 1,
        field: '(frontmatter)',
        found: 'no frontmatter',
        expected: 'the file to start with a --- line, its fields, then another --- line',
        fix: 'add the frontmatter: ---, then kind: and the fields its kind needs (docs/editing.md), then ---',
      };
    return { data: frontmatter, body: content };
  } catch (error) {
    // Line 0 of the raw frontmatter is the file's line 1 (the opening ---).
    const mark = (error as { mark?: { line: number; column: number } }).mark;
    const reason = (error as { reason?: string }).reason ?? (error as Error).message;
    return {
      file: shown,
      line: mark ? mark.line + 1 : 1,
      column: mark ? mark.column + 1 : 1,
      field: '(frontmatter)',
      found: `YAML that does not parse: ${reason}`,
      expected: 'valid YAML: one "field: value" per line',
      fix: 'text with a colon needs quotes: title: "A title: with a colon"',
    };
  }
}

export const filesUnder = (dir: string) => (existsSync(dir) ? globSync('**/*', { cwd: dir }) : []);

function imageProblems(shown: string, file: { absolute: string; raw: string; body: string }, publicDir: string) {
  const problems: Problem[] = [];
  for (const image of scanLinks(file.body, bodyFirstLine(file.raw, file.body)).filter((l) => l.kind === 'image')) {
    const at = {
      file: shown,
      line: image.line,
      column: columnOf(file.raw, image.line, `](${image.href}`, -image.text.length - 2),
      field: 'body',
    };
    if (image.text.trim() === '')
      problems.push({
        ...at,
        found: `image "${image.href}" without alt text`,
        expected: 'the words in the brackets describing what the image shows',
        fix: `describe it: ![A diagram of ...](${image.href})`,
      });
    problems.push(...imageFileProblems(at, image.href, file.absolute, shown, publicDir));
  }
  return problems;
}

/** Column (from 1) of `needle` on line `line` of `raw`, moved by `shift`; 1 when it is not there. */
function columnOf(raw: string, line: number, needle: string, shift = 0): number {
  const at = (raw.split('\n')[line - 1] ?? '').indexOf(needle);
  return at === -1 ? 1 : Math.max(1, at + 1 + shift);
}

/** A referenced image file that is on another site or does not exist, where `at` says it was written. */
export function imageFileProblems(
  at: Pick<Problem, 'file' | 'line' | 'column' | 'field'>,
  href: string,
  absolute: string,
  shown: string,
  publicDir: string,
): Problem[] {
  if (isOtherSite(href))
    return [
      {
        ...at,
        found: `image "${href}" on another site`,
        expected: "an image of the site's own (its Content-Security-Policy blocks other sites)",
        fix: 'save the image beside the content file, or under public/, and link it from there',
      },
    ];
  const path = filePath(href);
  const [dir, target] = isRootRelative(path) ? [publicDir, path.slice(1)] : [dirname(absolute), path];
  if (existsSync(resolve(dir, target))) return [];
  const guess = nearest(target.replace(/^\.\//, ''), filesUnder(dir));
  const where = isRootRelative(path) ? `public/${target}` : join(dirname(shown), target);
  return [
    {
      ...at,
      found: `image "${href}" that does not exist (looked for ${where})`,
      expected: 'an image file beside the content file, or under public/ for a path from the root',
      fix: guess ? `did you mean ${isRootRelative(path) ? `/${guess}` : `./${guess}`}?` : `add the file ${where}`,
    },
  ];
}

/** Every image of a frontmatter (an object with `src` and `alt`), with its field as problems name it. */
export function frontmatterImages(value: unknown, path: PropertyKey[] = []): { field: string; src: string }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => frontmatterImages(v, [...path, i]));
  if (!value || typeof value !== 'object' || value instanceof Date) return [];
  const record = value as Record<string, unknown>;
  if (typeof record['src'] === 'string' && 'alt' in record)
    return [{ field: fieldLabel([...path, 'src']), src: record['src'] }];
  return Object.entries(record).flatMap(([k, v]) => frontmatterImages(v, [...path, k]));
}

/** A frontmatter image that is on another site or missing, at the line of its `src`. */
function frontmatterImageProblems(
  file: { shown: string; absolute: string; raw: string; data: unknown },
  publicDir: string,
) {
  return frontmatterImages(file.data).flatMap(({ field, src }) => {
    const at = src ? file.raw.indexOf(src) : -1;
    const where = at === -1 ? { line: 1, column: 1 } : position(file.raw, at);
    return imageFileProblems({ file: file.shown, ...where, field }, src, file.absolute, file.shown, publicDir);
  });
}

export const hasMdxFiles = (dir: string) => globSync('**/*.mdx', { cwd: dir }).length > 0;

export interface CheckedFile {
  id: string;
  /** `content/<path>`, as editors know it. */
  shown: string;
  absolute: string;
  raw: string;
  data: Record<string, unknown>;
  body: string;
}

/**
 * Every content file checked on its own: `files` are those without a problem, which the loaders
 * store; `failed` those that have one (their frontmatter, where it parsed), so later checks do not
 * report what they lack as a second problem.
 */
export function checkContentFiles(base: string, publicDir: string) {
  const paths = globSync('**/*.{md,mdx}', { cwd: base }).sort();
  // As editors know them, whichever folder was built.
  const shown = (path: string) => `content/${path}`;
  const problems: Problem[] = duplicates(paths, entryId).map(([path, other, id]) => ({
    file: shown(path),
    line: 1,
    column: 1,
    field: '(file name)',
    found: `a file that publishes as "${id}", as ${shown(other)} does (the names differ only in case or punctuation)`,
    expected: 'one file per address',
    fix: 'rename or remove one of the two',
  }));
  const failed: { shown: string; data: Record<string, unknown> }[] = [];
  const files = paths.flatMap((path): CheckedFile[] => {
    const absolute = join(base, path);
    const raw = readFileSync(absolute, 'utf8');
    const read = readFile(shown(path), raw);
    if ('file' in read) {
      problems.push(read);
      failed.push({ shown: shown(path), data: {} });
      return [];
    }
    const file = { id: entryId(path), shown: shown(path), absolute, raw, ...read };
    const schema = checkEntryData(shown(path), read.data, raw);
    const own = [
      ...schema,
      ...imageProblems(shown(path), file, publicDir),
      ...(schema.length === 0 ? frontmatterImageProblems(file, publicDir) : []),
    ];
    problems.push(...own);
    const duplicate = problems.some((p) => p.file === file.shown && p.field === '(file name)');
    if (own.length === 0 && !duplicate) return [file];
    failed.push({ shown: file.shown, data: read.data });
    return [];
  });
  return { files, failed, problems };
}
