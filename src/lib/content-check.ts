/**
 * A check of every content file that reports all problems at once, in words an editor can act
 * on: two files that would publish at the same URL, frontmatter that does not match its schema
 * (src/schemas/entry-errors.ts), and images that are missing or have no alt text.
 */
import { existsSync, globSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { CORE_SCHEMA, load as loadYaml, mergeTag, timestampTag } from 'js-yaml';
import { checkEntryData } from '../schemas/entry-errors.ts';
import { bodyFirstLine, isRootRelative, scanLinks } from './content-links.ts';
import { nearest } from '../schemas/nearest.ts';

/** Every content file, as the collection's loader globs them. */
export const PATTERN = '**/*.{md,mdx}';
/** Frontmatter is read as Astro reads it (js-yaml 4's default schema): unquoted dates become dates. */
const YAML_SCHEMA = CORE_SCHEMA.withTags(timestampTag, mergeTag);
const FRONTMATTER = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\s*(?:\r?\n|$)/;

/** The entry id Astro derives from a file path: each segment lower-cased and slugged, no extension. */
const entryId = (path: string) =>
  path
    .replace(/\.(md|mdx)$/, '')
    .split('/')
    .map((segment) =>
      segment
        .toLowerCase()
        .trim()
        .replace(/\s+/g, '-')
        .replace(/[^\p{L}\p{N}_-]/gu, ''),
    )
    .join('/');

/** One problem, where it is: the file as editors name it, its absolute path and the line. */
interface Problem {
  text: string;
  absolute: string;
  line: number;
}

/**
 * The error content mistakes raise: every problem in its message, and where the first one is in
 * `loc`, which Astro's dev server shows (with the lines around it) instead of a stack trace, and
 * which its "Open in editor" opens.
 */
export class ContentFilesError extends Error {
  readonly loc: { file: string; line: number; column: number };
  /** The heading of Astro's error overlay. */
  readonly title = 'Content needs fixing';
  constructor(problems: Problem[]) {
    super(
      `Content needs fixing (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n\n${problems.map((p) => p.text).join('\n\n')}\n`,
    );
    this.name = 'ContentError';
    const first = problems[0]!;
    this.loc = { file: first.absolute, line: first.line, column: 1 };
    // Where our checker noticed the problem is of no use to the person who fixes the content.
    this.stack = '';
  }
}

/** The 1-based line of a top-level frontmatter field, or of the opening --- when it is missing. */
function fieldLine(raw: string, field: string): number | undefined {
  const key = field.split(/[.,]/)[0]!;
  const lines = raw.split(/\r?\n/);
  const end = lines.indexOf('---', 1);
  const at = lines.slice(0, end === -1 ? undefined : end).findIndex((l) => l.startsWith(`${key}:`));
  return at === -1 ? undefined : at + 1;
}

interface SourceFile {
  /** Path shown to editors, relative to the project root, e.g. `content/blog/x.md`. */
  shown: string;
  absolute: string;
  raw: string;
}

function duplicateIds(files: { path: string; shown: string; absolute: string }[]): Problem[] {
  const byId = new Map<string, string>();
  const problems: Problem[] = [];
  for (const { path, shown, absolute } of files) {
    const id = entryId(path);
    const other = byId.get(id);
    if (other) {
      problems.push({
        text: `${shown} and ${other} would both publish as "${id}" (file names differ only in case or punctuation); rename or remove one`,
        absolute,
        line: 1,
      });
    } else byId.set(id, shown);
  }
  return problems;
}

function frontmatterProblems(file: SourceFile): Problem[] {
  const at = (text: string, line = 1) => ({ text, absolute: file.absolute, line });
  const yaml = FRONTMATTER.exec(file.raw)?.[1];
  if (yaml === undefined)
    return [at(`${file.shown}: no frontmatter; start the file with a --- line, the fields, then another --- line`)];
  let data: unknown;
  try {
    data = loadYaml(yaml, { schema: YAML_SCHEMA });
  } catch (error) {
    const mark = (error as { mark?: { line: number } }).mark;
    const line = mark ? mark.line + 2 : 1;
    return [
      at(
        `${file.shown}${mark ? `:${line}` : ''}: the frontmatter is not valid YAML: ${(error as { reason?: string }).reason ?? (error as Error).message}. Text with a colon needs quotes.`,
        line,
      ),
    ];
  }
  // Each block starts "<file>\n  field:    <field>"; the file gains the field's line where it has one.
  return checkEntryData(file.shown, data).map((block) => {
    const field = /\n {2}field: +(.+)/.exec(block)?.[1] ?? '';
    const line = fieldLine(file.raw, field);
    return line === undefined ? at(block) : at(block.replace(file.shown, `${file.shown}:${line}`), line);
  });
}

/** Files that exist under `dir` (for a suggestion), relative to it. */
const filesUnder = (dir: string) => (existsSync(dir) ? globSync('**/*', { cwd: dir }) : []);

function imageProblems(file: SourceFile, publicDir: string): Problem[] {
  const body = file.raw.replace(FRONTMATTER, '');
  const problems: Problem[] = [];
  for (const image of scanLinks(body, bodyFirstLine(file.raw, body)).filter((l) => l.kind === 'image')) {
    const at = `${file.shown}:${image.line}: image "${image.href}"`;
    const add = (text: string) => problems.push({ text, absolute: file.absolute, line: image.line });
    if (image.text.trim() === '')
      add(`${at} has no alt text; describe what it shows: ![A diagram of ...](${image.href})`);
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(image.href)) {
      add(
        `${at} is on another site, which the site's Content-Security-Policy blocks; save it beside the content file or under public/`,
      );
      continue;
    }
    const path = decodeURI(image.href.replace(/[?#].*$/, ''));
    const [dir, target] = isRootRelative(path) ? [publicDir, path.slice(1)] : [dirname(file.absolute), path];
    if (existsSync(resolve(dir, target))) continue;
    const guess = nearest(target.replace(/^\.\//, ''), filesUnder(dir));
    const where = isRootRelative(path) ? `public/${target}` : join(dirname(file.shown), target);
    add(
      `${at} does not exist (looked for ${where})${guess ? `; did you mean ${isRootRelative(path) ? `/${guess}` : `./${guess}`}?` : ''}`,
    );
  }
  return problems;
}

/** Checks every content file; throws one error listing every problem. */
export function checkContentFiles(base: string, publicDir: string): void {
  const paths = globSync(PATTERN, { cwd: base }).sort();
  // Named as editors know them, whichever folder was built (fixtures build copies of content/).
  const shown = (path: string) => `content/${path}`;
  const problems = duplicateIds(paths.map((path) => ({ path, shown: shown(path), absolute: join(base, path) })));
  for (const path of paths) {
    const absolute = join(base, path);
    const file = { shown: shown(path), absolute, raw: readFileSync(absolute, 'utf8') };
    problems.push(...frontmatterProblems(file), ...imageProblems(file, publicDir));
  }
  if (problems.length > 0) throw new ContentFilesError(problems);
}
