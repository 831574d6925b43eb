import { describe, expect, it } from 'vitest';
import { rewriteLinks, scanLinks, bodyFirstLine } from '../../src/lib/content/links.ts';
import { nearest } from '../../src/text/nearest.ts';
import { checkEntryData as problemsOf } from '../../src/lib/content/entry-errors.ts';
import { formatProblem } from '../../src/lib/content/problem.ts';

const checkEntryData = (file: string, data: Record<string, unknown>) => problemsOf(file, data).map(formatProblem);

describe('links and images in a markdown body', () => {
  const body = [
    'See [our services](/services "Services") and ![A chart](./chart.png).', // line 10
    '',
    '```md',
    '[not a link](/inside-a-fence)',
    '```',
    'Inline `[code](/in-code)` stays; [a post](/blog/x#part) does not.', // line 15
    '[ref]: /agents#rules',
  ].join('\n');

  it('finds each with its line in the file, skipping code', () => {
    expect(scanLinks(body, 10).map((l) => [l.kind, l.href, l.line])).toEqual([
      ['link', '/services', 10],
      ['image', './chart.png', 10],
      ['link', '/blog/x#part', 15],
      ['link', '/agents#rules', 16],
    ]);
  });

  it('rewrites targets and keeps titles, code and everything else as written', () => {
    const out = rewriteLinks(body, 1, ({ href }) => (href.startsWith('/') ? `https://example.test${href}` : href));
    expect(out).toContain('[our services](https://example.test/services "Services")');
    expect(out).toContain('![A chart](./chart.png)');
    expect(out).toContain('[not a link](/inside-a-fence)');
    expect(out).toContain('`[code](/in-code)`');
    expect(out).toContain('[a post](https://example.test/blog/x#part)');
    expect(out).toContain('[ref]: https://example.test/agents#rules');
  });

  it('counts the body’s first line from the top of the file, frontmatter included', () => {
    const raw = '---\nkind: post\n---\n\nFirst line.\n';
    expect(bodyFirstLine(raw, '\nFirst line.\n')).toBe(4);
  });
});

describe('nearest', () => {
  it('suggests a close path and refuses a distant one', () => {
    expect(nearest('/servces', ['/services', '/blog', '/about'])).toBe('/services');
    expect(nearest('/completely-else', ['/services', '/blog'])).toBeUndefined();
  });
});

describe('schema errors for people', () => {
  const post = { kind: 'post', title: 'T', description: 'D', author: 'A', published: '2026-01-01' };

  it('tells to quote an unquoted date, with the value to write', () => {
    const [message] = checkEntryData('content/blog/x.md', { ...post, published: new Date('2026-12-01') });
    expect(message).toBe(
      'content/blog/x.md:1:1\n  field:    published\n  found:    2026-12-01, an unquoted date (YAML reads it as a date, not as text)\n  expected: a date written as text, YYYY-MM-DD\n  fix:      put it in quotes: published: "2026-12-01"',
    );
  });

  it('suggests the field a misspelt key was meant to be, in one message', () => {
    const { title, ...rest } = post;
    const messages = checkEntryData('content/blog/x.md', { ...rest, titel: title });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('field:    titel');
    expect(messages[0]).toContain('fix:      did you mean "title"? Rename the field.');
  });

  it('counts list positions from 1 and suggests the nearest allowed value', () => {
    const messages = checkEntryData('content/case-studies/x.md', {
      kind: 'case-study',
      title: 'T',
      client: 'C',
      industry: 'I',
      summary: 'S',
      capabilities: ['cloud-engineering', 'cloud-engneering'],
      engagement_model: 'assessment',
      outcomes: ['O'],
      published: '2026-01-01',
    });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('field:    capabilities, item 2');
    expect(messages[0]).toContain('did you mean "cloud-engineering"?');
  });

  it('names the allowed kinds when kind is unknown', () => {
    const [message] = checkEntryData('content/x.md', { kind: 'blog-post' });
    expect(message).toContain('field:    kind');
    expect(message).toContain('expected: one of: site, page, audience');
  });

  it('asks a page for each of its words, with what it is, and suggests the key a misspelt one was meant to be', () => {
    const page = {
      kind: 'page',
      page: 'partners',
      title: 'T',
      description: 'D',
      cta: { heading: 'H', text: 'T' },
      sections: { startup: 'Startup support', partner_program: 'Partner program support' },
    };
    const messages = checkEntryData('content/pages/partners.md', page);
    expect(messages).toContainEqual(
      expect.stringContaining(
        'field:    sections.who_decides\n  found:    nothing (the field is missing)\n  expected: the words for the heading of the disclaimer',
      ),
    );
    expect(messages).toContainEqual(
      expect.stringContaining(
        'field:    sections.partner_program\n  found:    "Partner program support"\n  expected: one of: startup, partner_programs, who_decides\n  fix:      did you mean "partner_programs"? Rename it.',
      ),
    );
  });

  it('asks /blog and /case-studies for the call to action their entries end with', () => {
    const page = { kind: 'page', page: 'blog', title: 'T', description: 'D', cta: { heading: 'H', text: 'T' } };
    expect(checkEntryData('content/pages/blog.md', page).join('\n')).toContain('field:    entry_cta');
  });
});
