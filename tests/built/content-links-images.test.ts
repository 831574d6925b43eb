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
      writeFileSync(join(dir, 'blog/zone.png'), solidPng(960, 540));
      writeFileSync(
        join(dir, 'blog/with-components.mdx'),
        [
          '---',
          'kind: post',
          'title: "Components in MDX"',
          'description: "A post in MDX with the site\'s components."',
          'author: Priya Raman',
          'published: "2026-01-01"',
          '---',
          '',
          'Just **markdown** from {partner}.',
          '',
          "{/* An editor's note: MDX renders nothing here, and the twin carries nothing either. */}",
          '',
          '<Figure caption="The zone {partner} built">',
          '![A diagram of the zone](./zone.png)',
          '</Figure>',
          '',
          '<Callout type="tip">',
          'Start with [one service](/services).',
          '</Callout>',
        ].join('\n'),
      );
      // The partner's name is written once: renaming it in site.md renames it everywhere.
      replaceIn(join(dir, 'site.md'), /^name: .*$/m, 'name: Falcon Cloud');
    });
  }, 240_000);

  it('builds', () => expect(build.status, build.output.slice(-3000)).toBe(0));

  it('renders an .mdx body through MDX, with the figure and call-out components', () => {
    const html = read('blog/with-components.html');
    expect(html).toContain('Just <strong>markdown</strong> from Falcon Cloud.');
    expect(html).toMatch(
      /<figure class="content-figure">\s*<p><img src="\/_astro\/zone\.[^"]+\.webp"[^>]* alt="A diagram of the zone"[^>]*><\/p>\s*<figcaption>The zone Falcon Cloud built<\/figcaption>\s*<\/figure>/,
    );
    expect(html).toMatch(
      /<aside class="callout callout-tip"><p class="callout-label">Tip<\/p>\s*<p>Start with <a href="\/services">one service<\/a>\.<\/p>/,
    );
  });

  it('gives the twin and llms-full.txt the markdown form of each component', () => {
    const twin = read('blog/with-components.md');
    expect(twin).toMatch(
      /!\[A diagram of the zone\]\(https:\/\/kestrelcloud\.example\/_astro\/zone\.[^)]+\.webp\)\n\*The zone Falcon Cloud built\*/,
    );
    expect(twin).toContain('> **Tip:**\n> Start with [one service](https://kestrelcloud.example/services).');
    for (const doc of [twin, read('llms-full.txt')]) {
      expect(doc).not.toMatch(/<\/?(?:Figure|Callout)/);
      expect(doc).not.toContain("editor's note");
    }
  });

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
    expect(read('aws-credentials.md')).toMatch(
      /^- \[Northwind Trading\]\(https:\/\/[^)]+\/case-studies\/new-client\)$/m,
    );
  });
});
