import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFixture, removeFixtures, type FixtureBuild } from '../helpers/fixture-build.ts';

// The checkers' messages are tested on the checkers (tests/unit/content-errors.test.ts); this one
// broken build proves that one `astro build` reports every kind of mistake at once: a file's own
// (an unquoted date, an image without alt text), the entry checks (a misspelt placeholder, a content
// rule, a duplicate id, a component .mdx cannot carry) and the link check, each in the same block.
afterAll(removeFixtures);

const append = (file: string, text: string) => writeFileSync(file, `${readFileSync(file, 'utf8')}\n${text}\n`);
const replaceIn = (file: string, from: RegExp, to: string) =>
  writeFileSync(file, readFileSync(file, 'utf8').replace(from, to));
const POST = 'blog/preparing-for-a-well-architected-review.md';

describe('a build of content with mistakes', () => {
  let build: FixtureBuild;
  beforeAll(() => {
    build = buildFixture((dir) => {
      // 1. a file's own problem: an unquoted date.
      replaceIn(
        join(dir, 'case-studies/harbourline-logistics-data-center-migration.md'),
        /^published: "(.*)"$/m,
        'published: $1',
      );
      // 2. a misspelt placeholder, 3. the partner called the cloud provider and 4. a promise of credits, in one body.
      append(
        join(dir, 'pages/services.md'),
        'Write to {emial}.\n\nIn short, we are AWS for your team.\n\nWe promise AWS Activate credits to every startup we work with.',
      );
      // 5. a link to a page that does not exist.
      append(join(dir, POST), 'See [our services](/servces).');
      // 6. an image without alt text.
      append(join(dir, 'blog/what-to-gather-before-asking-for-a-proposal.md'), '![](/favicon.svg)');
      // And a component .mdx cannot carry, and a second capability with the same id.
      writeFileSync(
        join(dir, 'blog/with-a-component.mdx'),
        '---\nkind: post\ntitle: "With a component"\ndescription: "A post that uses a component."\nauthor: Priya Raman\npublished: "2026-01-01"\n---\n\n<Chart data="x" />\n',
      );
      const capability = readFileSync(join(dir, 'capabilities/cloud-engineering.md'), 'utf8');
      writeFileSync(join(dir, 'capabilities/cloud-engineering-copy.md'), capability);
    });
  }, 240_000);

  it('fails', () => expect(build.status).not.toBe(0));

  it('lists every problem in one error, each block headed by file:line:column', () => {
    expect(build.output).toMatch(/Content needs fixing \(8 problems\):/);
    const blocks = build.output.split('Content needs fixing (8 problems):')[1]!.split(/\n\n/);
    const headers = blocks.map((b) => b.trim().split('\n')[0]!).filter((h) => h.startsWith('content/'));
    expect(headers).toEqual([
      expect.stringMatching(/^content\/blog\/preparing-for-a-well-architected-review\.md:31:20$/),
      expect.stringMatching(/^content\/blog\/what-to-gather-before-asking-for-a-proposal\.md:\d+:1$/),
      expect.stringMatching(/^content\/blog\/with-a-component\.mdx:9:1$/),
      expect.stringMatching(/^content\/capabilities\/cloud-engineering-copy\.md:3:5$/),
      // At the date, wherever the line of `published:` is.
      expect.stringMatching(/^content\/case-studies\/harbourline-logistics-data-center-migration\.md:\d+:12$/),
      expect.stringMatching(/^content\/pages\/services\.md:\d+:10$/),
      expect.stringMatching(/^content\/pages\/services\.md:\d+:11$/),
      expect.stringMatching(/^content\/pages\/services\.md:\d+:4$/),
    ]);
    for (const block of blocks.filter((b) => b.trim().startsWith('content/')))
      expect(
        block
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => l.slice(0, 12)),
      ).toEqual(['  field:    ', '  found:    ', '  expected: ', '  fix:      ']);
  });

  it('says for each what was found and how to fix it', () => {
    expect(build.output).toContain('found:    2026-03-17, an unquoted date');
    expect(build.output).toContain('found:    "{emial}", which is not a placeholder');
    expect(build.output).toContain('fix:      did you mean {email}?');
    expect(build.output).toContain('found:    "In short, we are AWS for your team."');
    expect(build.output).toContain('found:    "We promise AWS Activate credits to every startup we work with."');
    expect(build.output).toContain('Fix each problem in the file, at the line and column it names.');
    expect(build.output).not.toContain('Browser APIs are not available');
    expect(build.output).toContain('expected: the partner described as an independent consulting and delivery partner');
    expect(build.output).toContain('found:    link "/servces": no page at /servces');
    expect(build.output).toContain('fix:      did you mean /services?');
    expect(build.output).toContain('found:    image "/favicon.svg" without alt text');
    expect(build.output).toContain('found:    "<Chart data="x" />"');
    expect(build.output).toMatch(/found: {4}capability id "cloud-engineering", which content\/capabilities/);
  });
});
