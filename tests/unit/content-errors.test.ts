import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkContentFiles } from '../../src/lib/content/check.ts';
import { formatProblem, formatProblems, type Problem } from '../../src/lib/content/problem.ts';
import { duplicateProblems, ruleProblems } from '../../src/lib/content/entry-checks.ts';
import { markdownForm, mdxProblems } from '../../src/lib/content/mdx-components.ts';
import type { PageDocument } from '../../src/lib/pages/page-document.ts';

// The checkers the build runs, called directly with fixture inputs; tests/built/content-errors.test.ts
// builds one broken copy of content/ to prove the build runs them and fails.
// Image sizes come through astro:assets, which only exists inside a build; links never need them.
vi.mock('../../src/lib/content/images.ts', () => ({ imageSize: () => undefined }));
const root = join(import.meta.dirname, '../..');
const identity = { name: 'Kestrel Cloud', cloud_provider: 'AWS', cloud_provider_full_name: 'Amazon Web Services' };

/** A copy of content/ changed by `edit`, checked as the build's loader checks it; returns the error text. */
function fileCheckOf(edit: (dir: string) => void): string {
  const work = mkdtempSync(join(tmpdir(), 'content-check-'));
  try {
    const dir = join(work, 'content');
    cpSync(join(root, 'content'), dir, { recursive: true });
    edit(dir);
    const { problems } = checkContentFiles(dir, join(root, 'public'));
    return problems.length > 0 ? formatProblems(problems) : '';
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
const append = (file: string, text: string) => writeFileSync(file, `${readFileSync(file, 'utf8')}\n${text}\n`);
const replaceIn = (file: string, from: RegExp, to: string) =>
  writeFileSync(file, readFileSync(file, 'utf8').replace(from, to));
const POST = 'blog/preparing-for-a-well-architected-review';

describe('the file check (every content file, before Astro reads it)', () => {
  it('passes the content as it is', () => expect(fileCheckOf(() => {})).toBe(''));

  it('names the file and the field when frontmatter carries an unknown field', () => {
    const message = fileCheckOf((dir) =>
      replaceIn(join(dir, 'evidence.md'), /^source:/m, 'selected_note: "x"\nsource:'),
    );
    // The file is named at the field's line (Astro's overlay opens it there).
    expect(message).toMatch(/content\/evidence\.md:\d+:\d+\n {2}field: {4}selected_note/);
  });

  it('names the file and the field when frontmatter misses a required field', () => {
    const message = fileCheckOf((dir) =>
      replaceIn(join(dir, 'blog/what-to-gather-before-asking-for-a-proposal.md'), /^title:.*\n/m, ''),
    );
    // At the end of the frontmatter, where the field goes: its closing `---`, one line up once the title's is gone.
    const source = readFileSync(join(root, 'content/blog/what-to-gather-before-asking-for-a-proposal.md'), 'utf8');
    const closing = source.split('\n').indexOf('---', 1);
    expect(message).toContain(
      `content/blog/what-to-gather-before-asking-for-a-proposal.md:${closing}:1\n  field:    title\n  found:    nothing (the field is missing)`,
    );
    expect(message).toContain('fix:      add the field: title: ...');
  });

  describe('reports every problem together, each in words an editor can act on', () => {
    let message = '';
    beforeAll(() => {
      message = fileCheckOf((dir) => {
        // Two files that would publish at the same URL.
        writeFileSync(
          join(dir, 'blog/my-topic.md'),
          '---\nkind: post\ntitle: "A"\ndescription: "A."\nauthor: A\npublished: "2026-01-01"\n---\n\nA.\n',
        );
        writeFileSync(
          join(dir, 'blog/My-Topic.md'),
          '---\nkind: post\ntitle: "B"\ndescription: "B."\nauthor: B\npublished: "2026-01-02"\n---\n\nB.\n',
        );
        // An unquoted date, a misspelt field, a wrong list item, an image without alt text that is missing.
        writeFileSync(
          join(dir, 'blog/messy.md'),
          '---\nkind: post\ntitel: "Messy"\ndescription: "Messy."\nauthor: M\npublished: 2026-02-03\ntags: [finops, 42]\n---\n\nBody.\n\n![](./missing-diagram.png)\n',
        );
        append(join(dir, `${POST}.md`), '![A chart](/images/no-such-chart.png)');
        writeFileSync(join(dir, 'blog/broken-yaml.md'), '---\nkind: post\ntitle: A title: with a colon\n---\n\nA.\n');
      });
    });

    it('counts them in the heading', () => expect(message).toMatch(/^Content needs fixing \(\d+ problems\)/));

    it('names both files of a duplicate slug', () => {
      expect(message).toMatch(
        /content\/blog\/(My-Topic|my-topic)\.md:1:1\n {2}field: {4}\(file name\)\n {2}found: {4}a file that publishes as "blog\/my-topic", as content\/blog\/(my-topic|My-Topic)\.md does/,
      );
    });

    it('tells to quote an unquoted date', () => {
      expect(message).toMatch(
        /content\/blog\/messy\.md:6:12\n {2}field: {4}published\n {2}found: {4}2026-02-03, an unquoted date/,
      );
      expect(message).toContain('fix:      put it in quotes: published: "2026-02-03"');
    });

    it('suggests the field a misspelt key was meant to be', () => {
      expect(message).toContain('field:    titel');
      expect(message).toContain('did you mean "title"?');
    });

    it('counts list positions from 1', () => {
      expect(message).toContain('field:    tags, item 2\n  found:    number 42\n  expected: text');
    });

    it('names the line of YAML that does not parse, and how to fix it', () => {
      expect(message).toMatch(
        /content\/blog\/broken-yaml\.md:3:\d+\n {2}field: {4}\(frontmatter\)\n {2}found: {4}YAML that does not parse: .*\n.*\n {2}fix: {6}text with a colon needs quotes/,
      );
    });

    it('names the content file and line of a missing image beside it, and of one missing under public/', () => {
      expect(message).toContain(
        'content/blog/messy.md:12:1\n  field:    body\n  found:    image "./missing-diagram.png" that does not exist (looked for content/blog/missing-diagram.png)',
      );
      expect(message).toMatch(
        new RegExp(
          `content/${POST}\\.md:\\d+:1\n {2}field: {4}body\n {2}found: {4}image "/images/no-such-chart.png" that does not exist \\(looked for public/images/no-such-chart.png\\)`,
        ),
      );
    });

    it('refuses an image without alt text', () => {
      expect(message).toContain(
        'content/blog/messy.md:12:1\n  field:    body\n  found:    image "./missing-diagram.png" without alt text',
      );
    });
  });
});

describe('the entry checks (after placeholders are filled in)', () => {
  const entry = <T extends object>(file: string, data: T, body = '', raw = '') => ({ file, data, body, raw });
  const text = (problems: Problem[]) => problems.map(formatProblem);

  it('names the file, line, column, field and passage when a page calls the partner the cloud provider', () => {
    const raw = '---\nkind: page\ntitle: Services\n---\n\nIn short, we are {provider} for your team.\n';
    const [problem, ...rest] = ruleProblems(
      [entry('content/pages/services.md', { title: 'Services' }, 'In short, we are AWS for your team.', raw)],
      identity,
      { AWS: '{provider}' },
    );
    expect(rest).toEqual([]);
    expect(formatProblem(problem!)).toBe(
      [
        'content/pages/services.md:6:11',
        '  field:    body',
        '  found:    "In short, we are AWS for your team."',
        '  expected: the partner described as an independent consulting and delivery partner',
        '  fix:      describe the partner as an independent consulting and delivery partner, never as the cloud provider',
      ].join('\n'),
    );
  });

  it('refuses a promise of credits in a post body, naming the file', () => {
    const problems = ruleProblems(
      [entry(`content/${POST}.md`, {}, 'Every client will receive credits from the program.')],
      identity,
    );
    expect(text(problems)).toEqual([
      expect.stringMatching(new RegExp(`^content/${POST}\\.md:1:1\n {2}field: {4}body`)),
    ]);
  });

  it('quotes the whole sentence, cut at whole words', () => {
    const long = `${'Our engineers review every workload carefully '.repeat(4)}and then we are AWS for your team, ${'which matters a great deal to every client we serve '.repeat(3)}.`;
    const [problem] = ruleProblems([entry('content/site.md', { summary: long })], identity);
    expect(problem!.found).toMatch(/^"….*we are AWS.*…"$/);
    expect(problem!.found.length).toBeLessThanOrEqual(165);
    for (const word of problem!.found.slice(2, -2).split(' ')) expect(long).toContain(word);
  });

  it('refuses "50 customer launches" and "50+ companies" in frontmatter, naming the field', () => {
    const problems = ruleProblems(
      [
        entry('content/site.md', {
          type: 'Partner of 50+ companies after 50 customer launches',
          reasons: ['x', 'we are AWS'],
        }),
      ],
      identity,
    );
    expect(problems).toHaveLength(3);
    expect(problems.filter((p) => p.field === 'type' && p.expected.includes('50+ customer launches'))).toHaveLength(2);
    expect(problems.some((p) => p.found.includes('50 customer launches'))).toBe(true);
    expect(problems).toContainEqual(
      expect.objectContaining({ field: 'reasons, item 2', fix: expect.stringMatching(/never as the cloud provider/) }),
    );
  });

  it('lets the canonical figure and a partner phrase through', () => {
    expect(
      ruleProblems(
        [entry('content/site.md', { type: '50+ customer launches' }, 'We are an AWS Advanced Tier partner.')],
        identity,
      ),
    ).toEqual([]);
  });

  it('drops MDX comments from the markdown form, line for line, and keeps braces in code', () => {
    expect(markdownForm('Before {/* a note */} after.\n{/*\n two lines\n*/}\nEnd.')).toBe('Before  after.\n\n\n\nEnd.');
    expect(markdownForm('Code: `{/* kept */}`\n\n```js\nconst x = {/* kept */};\n```')).toBe(
      'Code: `{/* kept */}`\n\n```js\nconst x = {/* kept */};\n```',
    );
  });

  const found = (file: string, body: string) => mdxProblems(file, body).map((p) => `${p.found} | ${p.fix}`);

  it('refuses an MDX expression the markdown twin cannot carry; placeholders, escaped braces, comments and code pass', () => {
    expect(found('content/blog/e.mdx', 'It is {new Date().getFullYear()} now.')).toEqual([
      '"{new Date().getFullYear()}", an expression in braces, which has no markdown form | write the text itself, or \\{ for a brace',
    ]);
    expect(found('content/blog/p.mdx', 'From {partner}, \\{literal\\} and {/* note */} and `{code}`.')).toEqual([]);
  });

  it('refuses an .mdx body that uses another component, an import or an export, at its line', () => {
    const raw = '---\nkind: post\n---\n\nText.\n\n<Chart data="x" />\n';
    expect(mdxProblems('content/blog/x.mdx', 'Text.\n\n<Chart data="x" />\n', raw)).toEqual([
      expect.objectContaining({
        file: 'content/blog/x.mdx',
        line: 7,
        column: 1,
        field: 'body',
        found: '"<Chart data="x" />"',
        fix: 'use <Figure caption="..."> or <Callout type="note|tip|warning">, or write markdown',
      }),
    ]);
    expect(mdxProblems('content/blog/y.mdx', "import Chart from './chart.astro';\n")).toHaveLength(1);
    expect(mdxProblems('content/blog/z.mdx', 'Just **markdown**.')).toEqual([]);
    expect(
      found('content/blog/f.mdx', '<Figure>\n![A](./a.png)\n</Figure>\n\n<Callout type="danger">x</Callout>'),
    ).toEqual([
      '"<Figure>" without its caption | give the figure its caption: <Figure caption="What it shows">',
      '"<Callout type="danger">" | give the call-out one of the types note, tip, warning',
    ]);
    expect(found('content/blog/g.mdx', 'Inline <Callout>x</Callout> here.')).toEqual([
      '"<Callout>" beside other text | put each <Figure> and <Callout> tag on a line of its own',
    ]);
    // The same text in a .md file is markdown's own business (raw HTML), not MDX's.
    expect(mdxProblems('content/blog/w.md', '<Chart data="x" />')).toEqual([]);
  });

  it('names both files when two capabilities claim the same id, at the id', () => {
    const raw = '---\nkind: capability\nid: cloud-engineering\n---\n';
    const capabilities = [
      entry('content/capabilities/cloud-engineering.md', { id: 'cloud-engineering' }),
      entry('content/capabilities/migration.md', { id: 'migration' }),
      entry('content/capabilities/cloud-engineering-copy.md', { id: 'cloud-engineering' }, '', raw),
    ];
    expect(text(duplicateProblems(capabilities, (c) => c.data.id, 'id', 'capability id'))).toEqual([
      [
        'content/capabilities/cloud-engineering-copy.md:3:5',
        '  field:    id',
        '  found:    capability id "cloud-engineering", which content/capabilities/cloud-engineering.md already uses',
        '  expected: a capability id no other file uses',
        '  fix:      keep one of the two files, or give this one another id',
      ].join('\n'),
    ]);
  });
});

describe('the link check (every internal link against the published pages)', () => {
  // The check resolves links against the canonical base, as Astro provides it in a build.
  vi.stubEnv('SITE', 'https://example.test');
  let checkLinks: typeof import('../../src/lib/content/link-check.ts').checkLinks;
  beforeAll(async () => {
    ({ checkLinks } = await import('../../src/lib/content/link-check.ts'));
  });
  afterAll(() => vi.unstubAllEnvs());

  const doc = (path: string, markdown: string): PageDocument => ({
    path,
    title: path,
    description: '',
    blocks: [{ type: 'md', markdown }],
    updated: '2026-01-01',
    markdown,
    section: 'Company',
  });
  const docs = [doc('/services', '## Cloud engineering\n\nText.'), doc(`/${POST}`, 'A post.\n\n## Scope\n\nMore.')];
  const at = { file: `content/${POST}.md`, line: 12, column: 5, field: 'body' };
  const errorOf = (links: { href: string; context?: string; field?: string }[], known: string[] = []) =>
    checkLinks(
      links.map((l) => ({ ...at, context: '', ...l })),
      docs,
      known,
    )
      .map(formatProblem)
      .join('\n\n');

  it('passes links to pages, headings, twins, documents and public files', () => {
    expect(
      errorOf([
        { href: '/services' },
        { href: '/services#cloud-engineering' },
        { href: 'https://example.test/services.md' },
        { href: '/llms.txt' },
        { href: '/favicon.svg' },
        { href: 'https://other.example/anything' },
        { href: '#scope', context: 'A post.' },
      ]),
    ).toBe('');
  });

  it('names a missing page with a suggestion, at the link', () => {
    expect(errorOf([{ href: '/servces' }])).toBe(
      [
        `content/${POST}.md:12:5`,
        '  field:    body',
        '  found:    link "/servces": no page at /servces',
        '  expected: a link to a page or heading the site publishes, written from the site root',
        '  fix:      did you mean /services?',
      ].join('\n'),
    );
  });

  it('does not report a link to a page whose own file has a problem (that one is reported)', () => {
    expect(errorOf([{ href: '/blog/broken' }], ['/blog/broken'])).toBe('');
  });

  it('names a missing heading on an existing page with a suggestion', () => {
    const message = errorOf([{ href: '/services#cloud-engneering' }]);
    expect(message).toContain(
      'found:    link "/services#cloud-engneering": /services has no heading "#cloud-engneering"',
    );
    expect(message).toContain('fix:      did you mean /services#cloud-engineering?');
  });

  it('names a missing heading on the same page', () => {
    expect(errorOf([{ href: '#no-such-heading', context: 'A post.' }])).toContain(
      `link "#no-such-heading": no heading "#no-such-heading" on /${POST}`,
    );
  });

  it('asks for links from the site root instead of relative ones', () => {
    expect(errorOf([{ href: '../services', field: 'summary' }])).toContain(
      'field:    summary\n  found:    link "../services": a link relative to the file\n  expected: a link to a page or heading the site publishes, written from the site root\n  fix:      write it from the site root, e.g. "/services"',
    );
  });

  it('lists every broken link', () => {
    expect(errorOf([{ href: '/nope' }, { href: '/also-nope' }]).split('\n\n')).toHaveLength(2);
  });
});

describe('the markdown form of the .mdx components', () => {
  const body = [
    'Intro.', // 1
    '',
    '<Figure caption="The landing zone">',
    '![A diagram of the accounts](./zone.png)',
    '</Figure>', // 5
    '',
    '<Callout type="tip">',
    'Start with **one** workload.',
    '</Callout>',
    '', // 10
    '<Callout>One line.</Callout>',
    'After [a link](/services).', // 12
  ].join('\n');

  it('is plain markdown: the image with its caption below, a quote headed by the label', () => {
    expect(markdownForm(body)).toBe(
      [
        'Intro.',
        '',
        '',
        '![A diagram of the accounts](./zone.png)',
        '*The landing zone*',
        '',
        '> **Tip:**',
        '> Start with **one** workload.',
        '',
        '',
        '> **Note:** One line.',
        'After [a link](/services).',
      ].join('\n'),
    );
  });

  it('keeps every line where it was, so errors name the line the editor wrote', () => {
    expect(markdownForm(body).split('\n')).toHaveLength(body.split('\n').length);
    expect(
      markdownForm(body)
        .split('\n')
        .findIndex((l) => l.includes('/services')) + 1,
    ).toBe(12);
  });
});
