import { describe, expect, it } from 'vitest';
import { marked } from 'marked';
import { ELEMENT_NODE, parse, TEXT_NODE, type Node } from 'ultrahtml';
import { htmlPages, isUnlistedPage, readDist } from '../../scripts/local-site/dist.ts';

// Every page and its markdown twin say the same: each heading, paragraph, list item and table
// cell of the page's <main> is in the twin, and each of the twin's is on the page. A form is the
// one exception: the twin says what it asks in the sections the page names on it.
const UNITS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'li', 'dt', 'dd', 'th', 'td', 'pre', 'figcaption']);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const decode = (s: string) =>
  s.replace(/&(#x?[\da-f]+|\w+);/gi, (m, e: string) =>
    e.startsWith('#')
      ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
      : (ENTITIES[e] ?? m),
  );
/** Words only: markup, punctuation and spacing differ between HTML and markdown by design. */
const normalise = (s: string) =>
  decode(s)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const textOf = (node: Node): string =>
  node.type === TEXT_NODE
    ? node.value
    : node.type === ELEMENT_NODE && node.name === 'script'
      ? ''
      : (node.children ?? []).map(textOf).join(' ');

const holdsUnit = (node: Node): boolean =>
  (node.children ?? []).some((c: Node) => c.type === ELEMENT_NODE && (UNITS.has(c.name) || holdsUnit(c)));

/** The innermost text units under `nodes`; `skip` says which elements (and all below them) do not count. */
function units(nodes: Node[], skip: (node: Node) => boolean): string[] {
  const found: string[] = [];
  const visit = (node: Node) => {
    if (node.type !== ELEMENT_NODE && node.type !== 0) return;
    if (node.type === ELEMENT_NODE && skip(node)) return;
    if (node.type === ELEMENT_NODE && UNITS.has(node.name) && !holdsUnit(node)) {
      const text = normalise(textOf(node));
      if (text) found.push(text);
    }
    for (const child of node.children ?? []) visit(child);
  };
  nodes.forEach(visit);
  return found;
}

const headingLevel = (node: Node) => (node.type === ELEMENT_NODE ? /^h([1-6])$/.exec(node.name)?.[1] : undefined);

/** The twin's body (after frontmatter, title, pointer to llms.txt and summary line) as top-level nodes, without the form's sections. */
function twinNodes(twin: string, formSections: string[]): Node[] {
  const body = twin.replace(/^---\n[\s\S]*?\n---\n\n# .*\n\n> .*llms\.txt.*\n\n> .*\n\n/, '');
  const nodes = (parse(marked.parse(body, { async: false, gfm: true })).children ?? []) as Node[];
  const kept: Node[] = [];
  let skipping: number | undefined;
  for (const node of nodes) {
    const level = headingLevel(node);
    if (level && skipping !== undefined && Number(level) <= skipping) skipping = undefined;
    if (level && formSections.includes(normalise(textOf(node)))) skipping = Number(level);
    if (skipping === undefined) kept.push(node);
  }
  return kept;
}

const pages = htmlPages().filter((p) => !isUnlistedPage(p.path));

describe('page twins', () => {
  it('covers every page', () => {
    expect(pages.length).toBeGreaterThan(10);
  });

  it.each(pages)('$path says what its twin says, and the twin what the page says', ({ file, path }) => {
    const html = readDist(file);
    const main = /<main\b[^>]*>([\s\S]*)<\/main>/.exec(html)?.[1];
    expect(main, path).toBeDefined();
    const formSections: string[] = [];
    const page = units(parse(main!).children as Node[], (node) => {
      const sections = node.attributes?.['data-twin-sections'] as string | undefined;
      if (sections === undefined) return false;
      formSections.push(...sections.split('|').filter(Boolean).map(normalise));
      return true;
    });
    const twinFile = readDist(path === '/' ? 'index.md' : `${path.slice(1)}.md`);
    const twin = units(twinNodes(twinFile, formSections), () => false);
    // All of the twin, its title (the page's H1) included.
    const whole = marked.parse(twinFile.replace(/^---\n[\s\S]*?\n---\n\n/, ''), { async: false, gfm: true });
    const twinText = ` ${units(parse(whole).children as Node[], () => false).join(' ')} `;
    const pageText = ` ${page.join(' ')} `;
    expect(page.length, path).toBeGreaterThan(0);
    expect(twin.length, path).toBeGreaterThan(0);
    expect(
      page.filter((u) => !twinText.includes(` ${u} `)),
      `${path}: on the page, not in its twin`,
    ).toEqual([]);
    expect(
      twin.filter((u) => !pageText.includes(` ${u} `)),
      `${path}: in the twin, not on its page`,
    ).toEqual([]);
  });
});
