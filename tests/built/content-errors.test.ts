import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { distFiles, readDist } from '../../scripts/local-site/dist.ts';
import { buildFixture, removeFixtures } from '../helpers/fixture-build.ts';

afterAll(removeFixtures);

const append = (file: string, text: string) => writeFileSync(file, `${readFileSync(file, 'utf8')}\n${text}\n`);

describe('content errors fail the build with a helpful message', () => {
  it('names the file, field and passage when a page calls the partner the cloud provider', () => {
    const { status, output } = buildFixture((dir) =>
      append(join(dir, 'pages/services.md'), 'In short, we are AWS for your team.'),
    );
    expect(status).not.toBe(0);
    expect(output).toContain('pages/services.md: body:');
    expect(output).toContain('we are AWS');
    expect(output).toContain('partner-is-not-the-provider');
  });

  it('names the file and the field when frontmatter carries an unknown field', () => {
    const { status, output } = buildFixture((dir) => {
      const evidence = join(dir, 'evidence.md');
      writeFileSync(evidence, readFileSync(evidence, 'utf8').replace(/^source:/m, 'selected_note: "x"\nsource:'));
    });
    expect(status).not.toBe(0);
    expect(output).toMatch(/evidence\.md/);
    expect(output).toMatch(/selected_note/);
  });

  it('refuses a promise of credits in a post body, naming the file', () => {
    const { status, output } = buildFixture((dir) =>
      append(
        join(dir, 'blog/preparing-for-a-well-architected-review.md'),
        'Every client will receive credits from the program.',
      ),
    );
    expect(status).not.toBe(0);
    expect(output).toContain('blog/preparing-for-a-well-architected-review.md: body:');
    expect(output).toContain('no-promised-funding');
  });

  it('refuses "50 customer launches" and "50+ companies" in frontmatter, naming the field', () => {
    const { status, output } = buildFixture((dir) => {
      const file = join(dir, 'site.md');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(
          /^type: .*$/m,
          'type: "Partner of 50+ companies after 50 customer launches"',
        ),
      );
    });
    expect(status).not.toBe(0);
    expect(output).toContain('site.md: type:');
    expect(output).toContain('50 customer launches');
    expect(output).toContain('launches-figure');
  });

  it('names the file and the field when frontmatter misses a required field', () => {
    const { status, output } = buildFixture((dir) => {
      const file = join(dir, 'blog/what-to-gather-before-asking-for-a-proposal.md');
      writeFileSync(file, readFileSync(file, 'utf8').replace(/^title:.*\n/m, ''));
    });
    expect(status).not.toBe(0);
    expect(output).toContain(
      'content/blog/what-to-gather-before-asking-for-a-proposal.md\n  field:    title\n  found:    nothing (the field is missing)',
    );
    expect(output).toContain('fix:      add the field: title: ...');
  });

  it('refuses an .mdx body that uses a component, naming the file', () => {
    const { status, output } = buildFixture((dir) =>
      writeFileSync(
        join(dir, 'blog/with-a-component.mdx'),
        '---\nkind: post\ntitle: "With a component"\ndescription: "A post that uses a component."\nauthor: Test\npublished: "2026-01-01"\n---\n\n<Chart data="x" />\n',
      ),
    );
    expect(status).not.toBe(0);
    expect(output).toContain('blog/with-a-component.mdx: body: "<Chart"');
    expect(output).toContain('write plain markdown');
  });

  it('builds an .mdx body that is plain markdown', () => {
    const { status, output, outDir } = buildFixture((dir) =>
      writeFileSync(
        join(dir, 'blog/plain-mdx.mdx'),
        '---\nkind: post\ntitle: "Plain MDX"\ndescription: "A post in MDX with markdown only."\nauthor: Test\npublished: "2026-01-01"\n---\n\nJust **markdown**.\n',
      ),
    );
    expect(status, output.slice(-1500)).toBe(0);
    expect(readFileSync(join(outDir, 'blog/plain-mdx.html'), 'utf8')).toContain('<strong>markdown</strong>');
  });

  it('names both files when two capabilities claim the same id', () => {
    const { status, output } = buildFixture((dir) => {
      const original = readFileSync(join(dir, 'capabilities/cloud-engineering.md'), 'utf8');
      writeFileSync(join(dir, 'capabilities/cloud-engineering-copy.md'), original);
    });
    expect(status).not.toBe(0);
    expect(output).toMatch(
      /content\/capabilities\/cloud-engineering(-copy)?\.md: capability id "cloud-engineering" is already used by content\/capabilities\/cloud-engineering(-copy)?\.md/,
    );
  });

  it('two builds of the same content are byte-identical', () => {
    const { status, outDir } = buildFixture(() => {});
    expect(status).toBe(0);
    const files = distFiles('**/*.{html,md,txt,json,xml}').filter((f) => !f.startsWith('build-data/'));
    for (const file of files) expect(readFileSync(join(outDir, file), 'utf8'), file).toBe(readDist(file));
  });
});
