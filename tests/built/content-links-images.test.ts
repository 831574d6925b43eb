import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { globSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFixture, removeFixtures, type FixtureBuild } from '../helpers/fixture-build.ts';
import { solidPng } from '../helpers/png.ts';

afterAll(removeFixtures);

const POST = 'blog/preparing-for-a-well-architected-review';
const append = (file: string, text: string) => writeFileSync(file, `${readFileSync(file, 'utf8')}\n${text}\n`);
const replaceIn = (file: string, from: RegExp, to: string) =>
  writeFileSync(file, readFileSync(file, 'utf8').replace(from, to));
/** The line of `text` in a content file, counted from 1. */
const lineOf = (file: string, text: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((l) => l.includes(text)) + 1;

describe('a good build: links, images, placeholders and a renamed partner', () => {
  let build: FixtureBuild;
  const read = (file: string) => readFileSync(join(build.outDir, file), 'utf8');

  beforeAll(() => {
    build = buildFixture((dir) => {
      writeFileSync(join(dir, 'blog/review-diagram.png'), solidPng(640, 360));
      append(
        join(dir, `${POST}.md`),
        [
          'See [our services](/services), [cloud engineering](/services#cloud-engineering) and [the rules for agents](/agents#rules).',
          '',
          '![A review board reading a diagram](./review-diagram.png)',
          '',
          '![The {partner} mark](/favicon.svg)',
          '',
          'Questions? Write to {email}.',
        ].join('\n'),
      );
      writeFileSync(
        join(dir, 'case-studies/new-client.md'),
        [
          '---',
          'kind: case-study',
          'title: "A new case study"',
          'client: Northwind Trading',
          'industry: Retail',
          'summary: "{partner} moved a shop to {provider}."',
          'capabilities: [cloud-engineering]',
          'engagement_model: defined-project',
          'outcomes: [Shop moved]',
          'published: "2026-10-01"',
          '---',
          '',
          'Body.',
        ].join('\n'),
      );
      // The partner's name is written once: renaming it in site.md renames it everywhere.
      replaceIn(join(dir, 'site.md'), /^name: .*$/m, 'name: Falcon Cloud');
    });
  }, 240_000);

  it('builds', () => expect(build.status, build.output.slice(-3000)).toBe(0));

  it('renders root-relative links as site-relative links in HTML', () => {
    const html = read(`${POST}.html`);
    expect(html).toContain('<a href="/services">our services</a>');
    expect(html).toContain('<a href="/services#cloud-engineering">cloud engineering</a>');
    expect(html).toContain('<a href="/agents#rules">');
  });

  it('writes them as absolute canonical URLs in the twin and llms-full.txt', () => {
    for (const doc of [read(`${POST}.md`), read('llms-full.txt')]) {
      expect(doc).toContain('[our services](https://kestrelcloud.example/services)');
      expect(doc).toContain('(https://kestrelcloud.example/services#cloud-engineering)');
      expect(doc).not.toMatch(/\]\(\/(?!\/)/);
    }
  });

  it('optimizes an image beside the content with Astro and gives it width and height', () => {
    const img =
      /<img src="(\/_astro\/review-diagram\.[^"]+\.webp)" alt="A review board reading a diagram" width="640" height="360"/.exec(
        read(`${POST}.html`),
      );
    expect(
      img,
      read(`${POST}.html`)
        .match(/<img[^>]*>/g)
        ?.join('\n'),
    ).not.toBeNull();
    expect(globSync(img![1]!.slice(1), { cwd: build.outDir })).toHaveLength(1);
    expect(read(`${POST}.md`)).toContain(`![A review board reading a diagram](https://kestrelcloud.example${img![1]})`);
  });

  it('serves an image under public/ as it is, with its size', () => {
    expect(read(`${POST}.html`)).toMatch(
      /<img src="\/favicon\.svg" alt="The Falcon Cloud mark" width="\d+" height="\d+"/,
    );
  });

  it('fills placeholders in bodies and frontmatter', () => {
    expect(read(`${POST}.md`)).toContain('Questions? Write to proposals@kestrelcloud.example.');
    expect(read('case-studies/new-client.md')).toContain('Falcon Cloud moved a shop to AWS.');
  });

  it('leaves no old partner name anywhere in the site after a rename in site.md', () => {
    const files = globSync('**/*.{html,md,txt,json,xml}', { cwd: build.outDir });
    expect(files.length).toBeGreaterThan(30);
    const stale = files.filter((f) => read(f).includes('Kestrel Cloud'));
    expect(stale).toEqual([]);
    expect(read('index.html')).toMatch(/<title>[^<]*Falcon Cloud<\/title>/);
    expect(read('proposal.html')).toContain('I agree that Falcon Cloud stores this request');
  });

  it('derives the client list from the case studies, then adds other_clients', () => {
    const clients = JSON.parse(read('api/capabilities.json')).evidence.selected_client_experience as string[];
    // Case-study clients first (the new one is the newest), then the other clients of evidence.md.
    expect(clients[0]).toBe('Northwind Trading');
    expect(new Set(clients.slice(0, 4))).toEqual(
      new Set(['Northwind Trading', 'Quillstack', 'Brightmoor Insurance', 'Harbourline Logistics']),
    );
    expect(clients.slice(4)).toEqual(['Larkspur Retail Group', 'Oakhurst Learning', 'Meridian Dental Network']);
    expect(new Set(clients).size).toBe(clients.length);
    expect(read('aws-credentials.md')).toContain('- Northwind Trading');
  });
});

describe('a broken internal link fails the build, naming file, line, link and the nearest path', () => {
  let build: FixtureBuild;
  let file = '';
  beforeAll(() => {
    build = buildFixture((dir) => {
      file = join(dir, `${POST}.md`);
      append(
        file,
        'See [our services](/servces).\n\nAnd [a section](/services#cloud-engneering).\n\nAnd [below](#no-such-heading).',
      );
    });
  }, 240_000);

  it('fails', () => expect(build.status).not.toBe(0));

  it('names a missing page with a suggestion', () => {
    expect(build.output).toContain(
      `content/${POST}.md:${lineOf(file, '/servces')}: link "/servces": no page at /servces; did you mean /services?`,
    );
  });

  it('names a missing heading on an existing page with a suggestion', () => {
    expect(build.output).toContain(
      `content/${POST}.md:${lineOf(file, 'cloud-engneering')}: link "/services#cloud-engneering": /services has no heading "#cloud-engneering"; did you mean /services#cloud-engineering?`,
    );
  });

  it('names a missing heading on the same page', () => {
    expect(build.output).toContain(`link "#no-such-heading": no heading "#no-such-heading" on /${POST}`);
  });
});

describe('problems in content files are reported together, each in words an editor can act on', () => {
  let build: FixtureBuild;
  beforeAll(() => {
    build = buildFixture((dir) => {
      // Two files that would publish at the same URL.
      writeFileSync(
        join(dir, 'blog/my-topic.md'),
        '---\nkind: post\ntitle: "A"\ndescription: "A."\nauthor: A\npublished: "2026-01-01"\n---\n\nA.\n',
      );
      writeFileSync(
        join(dir, 'blog/My-Topic.md'),
        '---\nkind: post\ntitle: "B"\ndescription: "B."\nauthor: B\npublished: "2026-01-02"\n---\n\nB.\n',
      );
      // An unquoted date, a misspelt field and a wrong list item.
      writeFileSync(
        join(dir, 'blog/messy.md'),
        '---\nkind: post\ntitel: "Messy"\ndescription: "Messy."\nauthor: M\npublished: 2026-02-03\ntags: [finops, 42]\n---\n\nBody.\n\n![](./missing-diagram.png)\n',
      );
      append(join(dir, `${POST}.md`), '![A chart](/images/no-such-chart.png)');
    });
  }, 240_000);

  it('fails', () => expect(build.status).not.toBe(0));

  it('names both files of a duplicate slug', () => {
    expect(build.output).toMatch(
      /content\/blog\/(My-Topic|my-topic)\.md and content\/blog\/(my-topic|My-Topic)\.md would both publish as "blog\/my-topic"/,
    );
  });

  it('tells to quote an unquoted date', () => {
    expect(build.output).toContain(
      'content/blog/messy.md:6\n  field:    published\n  found:    2026-02-03, an unquoted date',
    );
    expect(build.output).toContain('fix:      put it in quotes: published: "2026-02-03"');
  });

  it('suggests the field a misspelt key was meant to be', () => {
    expect(build.output).toContain('field:    titel');
    expect(build.output).toContain('did you mean "title"?');
  });

  it('counts list positions from 1', () => {
    expect(build.output).toContain('field:    tags, item 2\n  found:    number 42\n  expected: text');
  });

  it('names the content file of a missing image beside it, and of one missing under public/', () => {
    expect(build.output).toContain(
      'content/blog/messy.md:12: image "./missing-diagram.png" does not exist (looked for content/blog/missing-diagram.png)',
    );
    expect(build.output).toContain(`content/${POST}.md:`);
    expect(build.output).toContain(
      'image "/images/no-such-chart.png" does not exist (looked for public/images/no-such-chart.png)',
    );
  });

  it('refuses an image without alt text', () => {
    expect(build.output).toContain('content/blog/messy.md:12: image "./missing-diagram.png" has no alt text');
  });
});
