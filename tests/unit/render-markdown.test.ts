import { beforeAll, describe, expect, it, vi } from 'vitest';

// render-markdown reads the canonical base (astro.config `site`) as Astro provides it, and image
// sizes through astro:assets, which only exists inside a build.
vi.stubEnv('SITE', 'https://example.test');
vi.mock('../../src/lib/content/images.ts', () => ({ imageSize: () => undefined }));
let render: typeof import('../../src/lib/pages/render-markdown.ts');
beforeAll(async () => {
  render = await import('../../src/lib/pages/render-markdown.ts');
});

describe('heading anchors', () => {
  const markdown = '## Notes\n\ntext\n\n## Notes\n\n## Cost, risk\n\n## Scope {#scope}\n\n### Notes';

  it('gives every heading of a page a unique id, as the link check reads them', () => {
    const ids = ['notes', 'notes-1', 'cost-risk', 'scope', 'notes-2'];
    expect(render.headingAnchors(markdown)).toEqual(ids);
    expect([...render.renderMarkdown(markdown).matchAll(/<h\d id="([^"]+)"/g)].map((m) => m[1])).toEqual(ids);
  });

  it('starts afresh for each document', () => {
    expect(render.headingAnchors('## Notes')).toEqual(['notes']);
    expect(render.headingAnchors('## Notes')).toEqual(['notes']);
  });
});
