import { describe, expect, it } from 'vitest';
import { contentFiles, ofKind } from '../helpers/content-files.ts';
import {
  distFiles,
  fileForPath,
  gzipSize,
  htmlPages,
  isUnlistedPage,
  readDist,
} from '../../scripts/local-site/dist.ts';
import { findViolations } from '../../src/lib/content/rules.ts';
import type { SiteData } from '../../src/lib/content/entry-schema.ts';

const content = contentFiles();
const site = ofKind(content, 'site')[0]!.data as unknown as SiteData;
const base = new URL(site.canonical_url);
const capabilities = JSON.parse(readDist('api/capabilities.json'));
const pathOf = (url: string) => {
  const u = new URL(url);
  expect(u.origin, `${url} is on the canonical origin`).toBe(base.origin);
  return u.pathname;
};

// The build validates the capabilities document against its published schema (src/lib/agents/agent-documents.ts).
describe('capabilities document', () => {
  it('carries the field names of the spec, with the brand slug in positioning', () => {
    expect(Object.keys(capabilities)).toEqual([
      'schema_version',
      'canonical_url',
      'organization',
      'positioning',
      'audiences',
      'capabilities',
      'cloud_program_support',
      'engagement_models',
      'evidence',
      'agent_guidance',
      'contact',
      'agent_resources',
      'proposal_workflow',
      'last_updated',
    ]);
    expect(capabilities.organization.cloud_partner_profile).toBe(site.cloud_partner_profile);
    expect(capabilities.evidence.cloud_partner_highlights.customer_launches).toBe('50+');
    expect(capabilities.positioning[`why_${site.brand_slug}`]).toEqual(site.reasons);
  });

  it('matches the content files it is built from', () => {
    const ids = (kind: string) =>
      ofKind(content, kind)
        .map((f) => f.data.id)
        .sort();
    expect(capabilities.capabilities.map((c: { id: string }) => c.id).sort()).toEqual(ids('capability'));
    expect(capabilities.engagement_models.map((c: { id: string }) => c.id).sort()).toEqual(ids('engagement-model'));
    expect(capabilities.audiences.map((c: { id: string }) => c.id).sort()).toEqual(ids('audience'));
    expect(capabilities.schema_version).toBe(site.schema_version);
    expect(capabilities.last_updated).toBe(site.last_updated);
    expect(capabilities.contact.email).toBe(site.email);
    expect(capabilities.agent_guidance).toEqual(site.agent_guidance);
    const program = ofKind(content, 'program-support')[0]!.data;
    expect(capabilities.cloud_program_support.disclaimer).toBe(program.disclaimer);
  });

  it('maps agent_resources to the paths of the spec, each served by a built file', () => {
    const expected = {
      directory: '/agents',
      solutions: '/services',
      delivery_models: '/delivery-models',
      partners: '/partners',
      about: '/about',
      credentials: '/aws-credentials',
      case_studies: '/case-studies',
      blog: '/blog',
      overview: '/llms.txt',
      full_context: '/llms-full.txt',
      homepage_markdown: '/index.md',
      sitemap: '/sitemap-index.xml',
    };
    const actual = Object.fromEntries(
      Object.entries(capabilities.agent_resources as Record<string, string>).map(([k, v]) => [k, pathOf(v)]),
    );
    expect(actual).toEqual(expected);
    for (const path of Object.values(expected)) expect(fileForPath(path), path).toBeDefined();
    for (const url of [
      capabilities.contact.proposal_url,
      capabilities.contact.proposal_api,
      capabilities.canonical_url,
    ]) {
      expect(fileForPath(pathOf(url)), url).toBeDefined();
    }
  });
});

describe('agent text documents', () => {
  const llms = readDist('llms.txt');

  it('llms.txt has the llmstxt.org shape: H1, blockquote, rules, H2 link sections', () => {
    const lines = llms.split('\n');
    expect(lines[0]).toBe(`# ${site.name}`);
    expect(lines[2]).toMatch(/^> \S/);
    for (const rule of site.agent_guidance) expect(llms).toContain(rule);
    expect(llms.match(/^## /gm)?.length).toBeGreaterThanOrEqual(4);
  });

  it('every link in llms.txt is absolute and resolves to a built file', () => {
    const links = [...llms.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(15);
    for (const link of links) expect(fileForPath(pathOf(link)), link).toBeDefined();
    // A link to each page's twin, and one to /sitemap.md.
    expect(links.filter((l) => l.endsWith('.md') && pathOf(l) !== '/sitemap.md').length).toBe(
      htmlPages().filter((p) => !isUnlistedPage(p.path)).length,
    );
  });

  it('every sitemap URL resolves to a built page, and every page is listed', () => {
    // The spec's /sitemap.xml answers with the index @astrojs/sitemap writes.
    expect(fileForPath('/sitemap.xml')).toBe('sitemap-index.xml');
    const parts = [...readDist('sitemap-index.xml').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) =>
      pathOf(m[1]!).slice(1),
    );
    expect(parts).toEqual(['sitemap-0.xml']);
    const locs = [...readDist(parts[0]!).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    const pages = locs.map(pathOf).sort();
    expect(pages).toEqual(
      htmlPages()
        .map((p) => p.path)
        .filter((p) => !isUnlistedPage(p))
        .sort(),
    );
    expect(readDist('robots.txt')).toContain(`Sitemap: ${new URL('/sitemap-index.xml', base)}`);
  });

  it('agent documents carry no relative URL', () => {
    const texts = ['llms.txt', 'llms-full.txt', ...distFiles('**/*.md')].map((f) => [f, readDist(f)] as const);
    for (const [file, text] of texts) {
      expect(text.match(/\]\((?!https?:|mailto:|tel:)[^)]*\)/g), file).toBeNull();
    }
    const strings: string[] = [];
    JSON.stringify(capabilities, (_k, v) => (typeof v === 'string' && strings.push(v), v));
    expect(strings.filter((s) => /^\.{0,2}\/\w/.test(s))).toEqual([]);
  });

  it("llms-full.txt holds every page twin in full (after the twin's frontmatter, without its pointer to llms.txt)", () => {
    const full = readDist('llms-full.txt');
    for (const { path } of htmlPages().filter((p) => !isUnlistedPage(p.path))) {
      const twin = readDist(path === '/' ? 'index.md' : `${path.slice(1)}.md`);
      const page = twin.replace(/^---\n[\s\S]*?\n---\n\n/, '').replace(/^(# .*\n\n)> .*llms\.txt.*\n\n/, '$1');
      expect(full).toContain(page.trim());
    }
  });
});

describe('HTML pages', () => {
  const pages = htmlPages();

  it('builds every page of the spec plus one per case study and post', () => {
    const paths = pages.map((p) => p.path);
    for (const path of [
      '/',
      '/agents',
      '/services',
      '/delivery-models',
      '/partners',
      '/about',
      '/aws-credentials',
      '/case-studies',
      '/blog',
      '/proposal',
    ]) {
      expect(paths).toContain(path);
    }
    expect(paths.filter((p) => p.startsWith('/case-studies/') && !p.startsWith('/case-studies/archive/')).length).toBe(
      ofKind(content, 'case-study').length,
    );
    expect(paths.filter((p) => p.startsWith('/blog/') && !/^\/blog\/(?:archive|tags)\//.test(p)).length).toBe(
      ofKind(content, 'post').length,
    );
  });

  // The 404 page is served for unknown paths: it has no address, so no twin.
  it.each(pages.filter((p) => !isUnlistedPage(p.path)))(
    '$path has a markdown twin, head links and fits in 14 KB gzipped',
    ({ file, path }) => {
      const html = readDist(file);
      const twin = path === '/' ? '/index.md' : `${path}.md`;
      expect(fileForPath(twin)).toBeDefined();
      expect(html).toContain(`<link rel="alternate" type="text/markdown" href="${new URL(twin, base)}"`);
      expect(html).toContain(`<link rel="describedby" type="text/plain" href="${new URL('/llms.txt', base)}"`);
      expect(html).toMatch(/<html lang="en">/);
      expect(html.match(/<h1[ >]/g)?.length).toBe(1);
      expect(gzipSize(file)).toBeLessThanOrEqual(14 * 1024);
    },
  );

  it('content pages ship no client JavaScript (JSON-LD data blocks are not scripts)', () => {
    for (const { file, path } of pages.filter((p) => p.path !== '/proposal' && !p.path.startsWith('/confirm/'))) {
      // Structured data (JSON-LD) is data, not script.
      expect(readDist(file).replace(/<script type="application\/ld\+json">[\s\S]*?<\/script>/g, ''), path).not.toMatch(
        /<script/i,
      );
    }
  });
});

describe('drafts and content rules', () => {
  it('draft entries appear in no output', () => {
    const drafts = contentFiles().filter((f) => f.data.draft === true);
    expect(drafts.length).toBeGreaterThan(0);
    const outputs = distFiles('**/*.{html,md,txt,json,xml}').map((f) => readDist(f));
    for (const draft of drafts) {
      const title = String(draft.data.title);
      const slug = draft.file
        .split('/')
        .pop()!
        .replace(/\.mdx?$/, '');
      for (const text of outputs) {
        expect(text).not.toContain(title);
        expect(text).not.toContain(slug);
      }
    }
  });

  it('no published output breaks a content rule', () => {
    for (const file of distFiles('**/*.{html,md,txt,json}')) {
      expect(findViolations(readDist(file), site), file).toEqual([]);
    }
    expect(readDist('aws-credentials.html')).toContain('50+ customer launches');
  });
});
