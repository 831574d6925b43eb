/**
 * The documents a newcomer follows stay true: every command they name exists, every link lands,
 * and the facts the code defines are listed where DOC_HOMES says they live.
 */
import { CONFIRMATION_EMAIL_MEANINGS } from '../../src/contract/submit-replies.ts';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';
import { DOC_HOMES, DOCUMENTS } from '../helpers/doc-homes.ts';
import { CHROMIUM, JAVA } from '../../scripts/local-site/prerequisites.ts';

const root = join(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
/** Markdown without its fenced code blocks, where `#` starts a comment rather than a heading. */
const prose = (text: string) => text.replace(/^```[\s\S]*?^```$/gm, '');

/** A table cell longer than this is a paragraph in the wrong place. */
const TABLE_CELL_MAX_CHARS = 140;

function anchors(file: string): Set<string> {
  const slugger = new GithubSlugger();
  return new Set([...prose(read(file)).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slugger.slug(m[1]!.replace(/`/g, ''))));
}

describe('the documents', () => {
  it('show `npm start` and `npm test` in README', () => {
    const readme = read(DOC_HOMES.readme);
    expect(readme).toMatch(/^npm start\b/m);
    expect(readme).toMatch(/^npm test\b/m);
  });

  it.each(DOCUMENTS)('%s names only npm scripts that exist', (file) => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: object }).scripts);
    const named = [...read(file).matchAll(/npm run ([a-z][\w:-]*)/g)].map((m) => m[1]!);
    expect(named.filter((name) => !scripts.includes(name))).toEqual([]);
  });

  it.each(DOCUMENTS)('%s links only to files and headings that exist', (file) => {
    const broken: string[] = [];
    // Links written as examples, inside backticks, are not links.
    for (const [, target] of prose(read(file))
      .replace(/`[^`\n]*`/g, '')
      .matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path, anchor] = target!.split('#');
      const linked = path ? join(dirname(file), path) : file;
      if (!existsSync(join(root, linked))) broken.push(target!);
      else if (anchor !== undefined && linked.endsWith('.md') && !anchors(linked).has(anchor)) broken.push(target!);
    }
    expect(broken).toEqual([]);
  });

  it.each(DOCUMENTS)('%s has no table cell a reader must scroll through', (file) => {
    const cells = prose(read(file))
      .split('\n')
      .filter((line) => line.startsWith('|'))
      .flatMap((line) => line.split(/(?<!\\)\|/).map((cell) => cell.trim()));
    expect(cells.filter((cell) => cell.length > TABLE_CELL_MAX_CHARS)).toEqual([]);
  });

  it.each(['README.md', 'CONTRIBUTING.md'])('%s gives the commands that install Java and Chromium', (file) => {
    for (const prerequisite of [JAVA, CHROMIUM]) expect(read(file)).toContain(prerequisite.install);
  });

  it(`list every confirmation_email value a submit can answer in ${DOC_HOMES.confirmationEmail}`, () => {
    const listed = [...read(DOC_HOMES.confirmationEmail).matchAll(/^\| `([a-z_]+)` +\|/gm)].map((m) => m[1]);
    for (const value of Object.keys(CONFIRMATION_EMAIL_MEANINGS)) expect(listed).toContain(value);
  });
});
