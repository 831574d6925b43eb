import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFixture, removeFixtures, type FixtureBuild } from '../helpers/fixture-build.ts';

// The checkers' messages are tested on the checkers (tests/unit/content-errors.test.ts); this one
// broken build proves that `astro build` runs the entry checks and fails with all their problems.
afterAll(removeFixtures);

const append = (file: string, text: string) => writeFileSync(file, `${readFileSync(file, 'utf8')}\n${text}\n`);

describe('a build of content with mistakes', () => {
  let build: FixtureBuild;
  beforeAll(() => {
    build = buildFixture((dir) => {
      append(join(dir, 'pages/services.md'), 'In short, we are AWS for your team. Write to {emial}.');
      writeFileSync(
        join(dir, 'blog/with-a-component.mdx'),
        '---\nkind: post\ntitle: "With a component"\ndescription: "A post that uses a component."\nauthor: Test\npublished: "2026-01-01"\n---\n\n<Chart data="x" />\n',
      );
      const capability = readFileSync(join(dir, 'capabilities/cloud-engineering.md'), 'utf8');
      writeFileSync(join(dir, 'capabilities/cloud-engineering-copy.md'), capability);
    });
  }, 240_000);

  it('fails', () => expect(build.status).not.toBe(0));

  it('lists every problem of the entry checks in one error, each naming its file', () => {
    expect(build.output).toMatch(/Content needs fixing \(4\):/);
    expect(build.output).toContain('content/pages/services.md: "{emial}" is not a placeholder; did you mean {email}?');
    expect(build.output).toMatch(
      /content\/pages\/services\.md: body: ".*we are AWS.*" breaks the rule "partner-is-not-the-provider"/,
    );
    expect(build.output).toContain(
      'content/blog/with-a-component.mdx: body: "<Chart data="x" />": the only components',
    );
    expect(build.output).toMatch(
      /content\/capabilities\/cloud-engineering(-copy)?\.md: capability id "cloud-engineering" is already used by content\/capabilities\/cloud-engineering(-copy)?\.md/,
    );
  });
});
