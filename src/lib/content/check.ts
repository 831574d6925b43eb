/** Checks every content file before Astro reads it, reporting all problems at once in words an editor can act on. */
import { existsSync, globSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseFrontmatter } from 'astro/markdown';
import { slug } from 'github-slugger';
import { checkEntryData } from './entry-errors.ts';
import { duplicates } from './entry-checks.ts';
import { bodyFirstLine, filePath, isOtherSite, isRootRelative, scanLinks } from './links.ts';
import { nearest } from '../../text/nearest.ts';
import { ContentError } from './error.ts';

/** The entry id, as Astro's glob loader derives it from a file path: each segment slugged, no extension. */
const entryId = (path: string) =>
  path
    .replace(/\.mdx?$/, '')
    .split('/')
    .map((segment) => slug(segment))
    .join('/');

/** Frontmatter and body, by the reader Astro's glob loader uses (an unquoted date is a date here too). */
function readFile(shown: string, raw: string): { data: Record<string, unknown>; body: string } | string {
  try {
    const { frontmatter, rawFrontmatter, content } = parseFrontmatter(raw);
    if (rawFrontmatter === '')
      return `${shown}: no frontmatter; start the file with a --- line, the fields, then another --- line`;
    return { data: frontmatter, body: content };
  } catch (error) {
    // Line 0 of the raw frontmatter is the file's line 1 (the opening ---).
    const mark = (error as { mark?: { line: number } }).mark;
    const line = mark ? `:${mark.line + 1}` : '';
    return `${shown}${line}: the frontmatter is not valid YAML: ${(error as { reason?: string }).reason ?? (error as Error).message}. Text with a colon needs quotes.`;
  }
}

export const filesUnder = (dir: string) => (existsSync(dir) ? globSync('**/*', { cwd: dir }) : []);

function imageProblems(shown: string, file: { absolute: string; raw: string; body: string }, publicDir: string) {
  const problems: string[] = [];
  for (const image of scanLinks(file.body, bodyFirstLine(file.raw, file.body)).filter((l) => l.kind === 'image')) {
    const at = `${shown}:${image.line}: image "${image.href}"`;
    if (image.text.trim() === '')
      problems.push(`${at} has no alt text; describe what it shows: ![A diagram of ...](${image.href})`);
    if (isOtherSite(image.href)) {
      problems.push(
        `${at} is on another site, which the site's Content-Security-Policy blocks; save it beside the content file or under public/`,
      );
      continue;
    }
    const path = filePath(image.href);
    const [dir, target] = isRootRelative(path) ? [publicDir, path.slice(1)] : [dirname(file.absolute), path];
    if (existsSync(resolve(dir, target))) continue;
    const guess = nearest(target.replace(/^\.\//, ''), filesUnder(dir));
    const where = isRootRelative(path) ? `public/${target}` : join(dirname(shown), target);
    problems.push(
      `${at} does not exist (looked for ${where})${guess ? `; did you mean ${isRootRelative(path) ? `/${guess}` : `./${guess}`}?` : ''}`,
    );
  }
  return problems;
}

export const hasMdxFiles = (dir: string) => globSync('**/*.mdx', { cwd: dir }).length > 0;

export function checkContentFiles(base: string, publicDir: string) {
  const paths = globSync('**/*.{md,mdx}', { cwd: base }).sort();
  // As editors know them, whichever folder was built.
  const shown = (path: string) => `content/${path}`;
  const problems = duplicates(paths, entryId).map(
    ([path, other, id]) =>
      `${shown(path)} and ${shown(other)} would both publish as "${id}" (file names differ only in case or punctuation); rename or remove one`,
  );
  const files = paths.flatMap((path) => {
    const absolute = join(base, path);
    const raw = readFileSync(absolute, 'utf8');
    const read = readFile(shown(path), raw);
    if (typeof read === 'string') {
      problems.push(read);
      return [];
    }
    const file = { id: entryId(path), absolute, raw, ...read };
    problems.push(...checkEntryData(shown(path), read.data, raw), ...imageProblems(shown(path), file, publicDir));
    return [file];
  });
  if (problems.length > 0)
    throw new ContentError(
      `Content needs fixing (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n\n${problems.join('\n\n')}\n`,
    );
  return files;
}
