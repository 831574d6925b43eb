/**
 * The discovery signals of the built site, read from dist/ and checked against the content
 * files read independently: Link headers, robots.txt, the API and AI catalogs, Agent Skills,
 * JSON-LD, twin frontmatter and the sitemap.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { ConformanceTester } from 'lighthouse/third-party/ard/ard.js';
import { contentFiles, ofKind } from '../helpers/content-files.ts';
import {
  distFiles,
  fileForPath,
  htmlPages,
  isUnlistedPage,
  readDist,
  rewrites,
  root,
} from '../../scripts/local-site/dist.ts';
import { validateEarlierServerCard, validateRegistryServer, validateServerCard } from '../helpers/vendored-schemas.ts';
import { registryServerJson } from '../../src/lib/agents/mcp-server.ts';
import { rpcMessage } from '../helpers/mcp-reply.ts';
import handler from '../../netlify/functions/proposal.mts';
import { findViolations } from '../../src/lib/content/rules.ts';
import { createHash } from 'node:crypto';

const files = contentFiles();
const site = ofKind(files, 'site')[0]!.data as Record<string, unknown> & {
  name: string;
  email: string;
  canonical_url: string;
  cloud_provider: string;
  cloud_provider_full_name: string;
  cloud_partner_profile: string;
  delivery_regions: string[];
  agent_guidance: string[];
  consent_text: string;
  last_updated: string;
  content_signals: { search: string; ai_input: string; ai_train: string };
};
const base = new URL(site.canonical_url);
const pathOf = (url: string) => new URL(url, base).pathname;
/** The site's pages: every HTML page except 404.html and the confirmation pages, no pages of their own (no twin, no sitemap entry). */
const sitePages = () => htmlPages().filter((p) => !isUnlistedPage(p.path));
const twinOf = (path: string) => (path === '/' ? 'index.md' : `${path.slice(1)}.md`);

/** dist/_headers as rules: pattern → header name → value. */
function headerRules(): Map<string, Map<string, string>> {
  const rules = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  for (const line of readDist('_headers').split('\n')) {
    if (line.startsWith('#') || line.trim() === '') continue;
    if (!line.startsWith(' ')) rules.set(line.trim(), (current = new Map()));
    else {
      const [name, ...value] = line.trim().split(':');
      current!.set(name!, value.join(':').trim());
    }
  }
  return rules;
}

/** `<url>; rel="x"; type="y", ...` → [{ href, rel, type }]. */
function parseLinks(header: string): { href: string; rel: string; type?: string }[] {
  return header.split(/,\s*(?=<)/).map((part) => {
    const href = /^<([^>]+)>/.exec(part)![1]!;
    const rel = /rel="([^"]+)"/.exec(part)![1]!;
    const type = /type="([^"]+)"/.exec(part)?.[1];
    return { href, rel, ...(type ? { type } : {}) };
  });
}

describe('Link headers (RFC 8288) in dist/_headers', () => {
  const rules = headerRules();

  it('every HTML page links its markdown twin and llms.txt, under its path and its file path', () => {
    for (const { path } of sitePages()) {
      const patterns = path === '/' ? ['/'] : [path, `${path}.html`];
      for (const pattern of patterns) {
        const link = rules.get(pattern)?.get('Link');
        expect(link, pattern).toBeDefined();
        const links = parseLinks(link!);
        expect(links).toContainEqual({
          href: new URL(twinOf(path), base).href,
          rel: 'alternate',
          type: 'text/markdown',
        });
        expect(links).toContainEqual({ href: new URL('/llms.txt', base).href, rel: 'describedby', type: 'text/plain' });
        for (const l of links) expect(fileForPath(pathOf(l.href)), l.href).toBeDefined();
      }
    }
  });

  it('/ also names the API catalog, the OpenAPI description, the agents page and the AI catalog', () => {
    const rels = Object.fromEntries(parseLinks(rules.get('/')!.get('Link')!).map((l) => [l.rel, pathOf(l.href)]));
    expect(rels).toMatchObject({
      'api-catalog': '/.well-known/api-catalog',
      'service-desc': '/openapi.json',
      'service-doc': '/agents',
    });
    expect(rules.get('/services')!.get('Link')).not.toContain('api-catalog');
  });

  it('every page names the AI catalog root-relative, so it resolves on whichever host serves the page', () => {
    for (const { path } of sitePages()) {
      const links = parseLinks(rules.get(path)!.get('Link')!);
      expect(links, path).toContainEqual({
        href: '/.well-known/ai-catalog.json',
        rel: 'ai-catalog',
        type: 'application/ai-catalog+json',
      });
    }
  });

  it('the API catalog answers GET and HEAD with its own api-catalog Link and the RFC 9727 media type', () => {
    expect(parseLinks(rules.get('/.well-known/api-catalog*')!.get('Link')!)).toEqual([
      { href: new URL('/.well-known/api-catalog', base).href, rel: 'api-catalog', type: 'application/linkset+json' },
    ]);
    const toml = readFileSync(join(root, 'netlify.toml'), 'utf8');
    const block = toml.slice(toml.indexOf('for = "/.well-known/api-catalog*"')).split('[[headers]]')[0];
    expect(block).toContain(
      'Content-Type = "application/linkset+json; profile=\\"https://www.rfc-editor.org/info/rfc9727\\""',
    );
  });

  it('every response carries the aipref Content-Usage preference from content/site.md', () => {
    const yn = (v: string) => (v === 'yes' ? 'y' : 'n');
    expect(rules.get('/*')!.get('Content-Usage')).toBe(
      `train-ai=${yn(site.content_signals.ai_train)}, search=${yn(site.content_signals.search)}`,
    );
  });
});

describe('robots.txt', () => {
  const robots = readDist('robots.txt');
  const groups = robots.split(/\n\n+/).filter((g) => /^User-agent:/m.test(g));
  const groupOf = (agent: string) => groups.find((g) => g.split('\n').includes(`User-agent: ${agent}`));
  const signals = site.content_signals;

  it('names AI search, assistant and training agents, each ruled by its content signal', () => {
    for (const agent of ['OAI-SearchBot', 'Claude-SearchBot', 'PerplexityBot'])
      expect(groupOf(agent), agent).toContain(signals.search === 'yes' ? 'Allow: /' : 'Disallow: /');
    for (const agent of ['ChatGPT-User', 'Claude-User', 'Perplexity-User'])
      expect(groupOf(agent), agent).toContain(signals.ai_input === 'yes' ? 'Allow: /' : 'Disallow: /');
    for (const agent of ['GPTBot', 'ClaudeBot', 'Google-Extended', 'CCBot'])
      expect(groupOf(agent), agent).toContain(signals.ai_train === 'yes' ? 'Allow: /' : 'Disallow: /');
    expect(groupOf('*')).toContain('Allow: /');
  });

  it('every group carries the Content-Signal line of content/site.md', () => {
    const signal = `Content-Signal: search=${signals.search}, ai-input=${signals.ai_input}, ai-train=${signals.ai_train}`;
    for (const g of groups) expect(g).toContain(signal);
  });

  it("holds only directives Lighthouse's robots-txt audit knows, and points to the sitemap", () => {
    const known = new Set(['user-agent', 'allow', 'disallow', 'sitemap', 'crawl-delay', 'clean-param', 'host']);
    for (const name of ['request-rate', 'visit-time', 'noindex', 'content-signal']) known.add(name);
    const directives = robots
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'))
      .map((line) => line.slice(0, line.indexOf(':')).trim().toLowerCase());
    expect(directives.filter((d) => !known.has(d))).toEqual([]);
    expect(robots).toContain(`Sitemap: ${new URL('/sitemap-index.xml', base)}`);
  });
});

describe('/.well-known/ai-catalog.json (ARD)', () => {
  const raw = readDist('.well-known/ai-catalog.json');
  const catalog = JSON.parse(raw);

  it('passes the conformance tester Lighthouse ships, with no error and no warning', () => {
    const tester = new ConformanceTester();
    tester.validate_manifest(raw, 'ai-catalog.json');
    expect(tester.errors).toEqual([]);
    expect(tester.warnings).toEqual([]);
  });

  it('lists the proposal skill and names the capabilities document, the proposal API, OpenAPI and llms.txt', () => {
    const [entry] = catalog.entries;
    expect(pathOf(entry.url)).toBe('/.well-known/agent-skills/request-a-proposal/SKILL.md');
    expect(Object.values(entry.metadata).map((u) => pathOf(u as string))).toEqual(
      expect.arrayContaining([
        '/api/capabilities',
        '/api/proposal',
        '/openapi.json',
        '/llms.txt',
        '/.well-known/agent-skills/index.json',
      ]),
    );
    for (const url of [entry.url, ...Object.values(entry.metadata)] as string[])
      expect(fileForPath(pathOf(url)), url).toBeDefined();
  });

  it('every HTML page links it with <link rel="ai-catalog">', () => {
    for (const { file } of sitePages())
      expect(readDist(file), file).toContain(
        '<link rel="ai-catalog" type="application/ai-catalog+json" href="/.well-known/ai-catalog.json">',
      );
  });
});

describe('/.well-known/agent-skills (Agent Skills Discovery v0.2.0)', () => {
  const index = JSON.parse(readDist('.well-known/agent-skills/index.json'));

  it('has the final v0.2.0 shape: $schema, and per skill name, type skill-md, description, url, digest', () => {
    expect(index.$schema).toBe('https://schemas.agentskills.io/discovery/0.2.0/schema.json');
    expect(index).not.toHaveProperty('version');
    expect(index.skills.length).toBeGreaterThan(0);
    for (const skill of index.skills) {
      expect(Object.keys(skill).sort()).toEqual(['description', 'digest', 'name', 'type', 'url']);
      expect(skill.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(skill.type).toBe('skill-md');
      expect(pathOf(skill.url)).toBe(`/.well-known/agent-skills/${skill.name}/SKILL.md`);
    }
  });

  it('each digest is the sha256 of the exact bytes served at its url', () => {
    for (const skill of index.skills) {
      const bytes = readFileSync(join(root, 'dist', pathOf(skill.url)));
      expect(skill.digest).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
    }
  });

  it('SKILL.md: frontmatter matching the index; when to use; guide → summarize → consent → submit; rules; honest results', () => {
    const text = readDist('.well-known/agent-skills/request-a-proposal/SKILL.md');
    const [, fm = ''] = text.split(/^---$/m);
    const meta = load(fm) as { name: string; description: string };
    expect(meta).toEqual({ name: index.skills[0].name, description: index.skills[0].description });
    expect(meta.description.length).toBeLessThanOrEqual(1024);
    const at = (s: string) => text.indexOf(s);
    expect(at('## When to use it')).toBeGreaterThan(0);
    expect(
      [at('**Guide**'), at('**Gather and summarize**'), at('**Consent.**'), at('**Submit.**')].every(
        (v, i, a) => v > 0 && (i === 0 || v > a[i - 1]!),
      ),
    ).toBe(true);
    for (const rule of site.agent_guidance) expect(text).toContain(rule.replace(/\s+/g, ' ').trim());
    expect(text).toContain(site.consent_text.replace(/\s+/g, ' ').trim());
    expect(text).toMatch(/`status: "received"`/);
    expect(text).toMatch(/`confirmation_email: "sent"`/);
    expect(text).toContain('Idempotency-Key');
    expect(findViolations(text, site)).toEqual([]);
  });
});

describe('JSON-LD', () => {
  const graphOf = (file: string) => {
    const scripts = [...readDist(file).matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)];
    expect(scripts, file).toHaveLength(1);
    const graph = JSON.parse(scripts[0]![1]!);
    expect(graph['@context']).toBe('https://schema.org');
    return graph['@graph'] as Record<string, unknown>[];
  };
  const ofType = (nodes: Record<string, unknown>[], type: string) => nodes.filter((n) => n['@type'] === type);

  it('every page names the partner as a ProfessionalService, from content/site.md', () => {
    for (const { file } of sitePages()) {
      const [org] = ofType(graphOf(file), 'ProfessionalService');
      expect(org, file).toMatchObject({
        name: site.name,
        url: base.href,
        email: site.email,
        areaServed: site.delivery_regions,
        sameAs: [site.cloud_partner_profile],
      });
    }
  });

  it('/services has one Service per capability, provided by the partner', () => {
    const services = ofType(graphOf('services.html'), 'Service');
    const capabilities = ofKind(files, 'capability');
    expect(services.map((s) => s.name).sort()).toEqual(capabilities.map((c) => c.data.name as string).sort());
    for (const s of services) expect(s.provider).toEqual({ '@id': `${base.href}#organization` });
  });

  it('each post and case study is an Article with its dates; pages below home have breadcrumbs', () => {
    for (const kind of ['post', 'case-study']) {
      for (const entry of ofKind(files, kind)) {
        const slug = entry.file
          .split('/')
          .pop()!
          .replace(/\.mdx?$/, '');
        const file = `${kind === 'post' ? 'blog' : 'case-studies'}/${slug}.html`;
        const nodes = graphOf(file);
        expect(ofType(nodes, 'Article')[0], file).toMatchObject({
          headline: entry.data.title,
          datePublished: entry.data.published,
        });
        const crumbs = (ofType(nodes, 'BreadcrumbList')[0]!.itemListElement as { item: string }[]).map((c) =>
          pathOf(c.item),
        );
        expect(crumbs).toEqual(['/', kind === 'post' ? '/blog' : '/case-studies', `/${file.replace(/\.html$/, '')}`]);
      }
    }
    expect(ofType(graphOf('index.html'), 'BreadcrumbList')).toEqual([]);
    expect(ofType(graphOf('services.html'), 'BreadcrumbList')).toHaveLength(1);
  });

  it('breaks no content rule', () => {
    for (const { file } of sitePages()) expect(findViolations(JSON.stringify(graphOf(file)), site), file).toEqual([]);
  });
});

describe('markdown twins and the sitemap', () => {
  const index = readDist('sitemap-index.xml');
  const sitemap = readDist('sitemap-0.xml');
  /** Each page's date as the sitemap gives it (a W3C datetime at midnight UTC), as a content date. */
  const lastmods = new Map(
    [...sitemap.matchAll(/<loc>([^<]+)<\/loc>\s*<lastmod>(\d{4}-\d{2}-\d{2})T00:00:00\.000Z<\/lastmod>/g)].map((m) => [
      pathOf(m[1]!),
      m[2]!,
    ]),
  );

  it('each twin starts with title, description, canonical URL and last updated', () => {
    for (const { path } of sitePages()) {
      const twin = readDist(twinOf(path));
      const match = /^---\n([\s\S]*?)\n---\n\n# /.exec(twin);
      expect(match, path).not.toBeNull();
      const fm = load(match![1]!) as Record<string, string>;
      expect(Object.keys(fm)).toEqual(['title', 'description', 'canonical_url', 'last_updated']);
      expect(fm.canonical_url).toBe(new URL(path, base).href.replace(/\/$/, path === '/' ? '/' : ''));
      expect(fm.last_updated).toBe(lastmods.get(path));
    }
  });

  it('each twin points to /llms.txt on the line under its title', () => {
    for (const { path } of sitePages()) {
      const body = readDist(twinOf(path)).replace(/^---\n[\s\S]*?\n---\n\n/, '');
      const [title, pointer] = body.split('\n\n');
      expect(title, path).toMatch(/^# /);
      expect(pointer, path).toBe(`> For the index of every page, see [llms.txt](${new URL('/llms.txt', base).href}).`);
    }
  });

  it('each twin names its page as canonical and llms.txt as describedby in its Link header', () => {
    const rules = headerRules();
    for (const { path } of sitePages()) {
      const link = rules.get(`/${twinOf(path)}`)?.get('Link');
      expect(link, path).toBeDefined();
      expect(parseLinks(link!)).toEqual([
        { href: new URL(path, base).href, rel: 'canonical', type: 'text/html' },
        { href: new URL('/llms.txt', base).href, rel: 'describedby', type: 'text/plain' },
      ]);
    }
  });

  it('the sitemap declares UTF-8, is served with a charset, and dates come from the content', () => {
    for (const xml of [index, sitemap]) expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(readFileSync(join(root, 'netlify.toml'), 'utf8')).toMatch(
      /for = "\/\*\.xml"\s*\[headers\.values\]\s*Content-Type = "application\/xml; charset=utf-8"/,
    );
    for (const entry of [...ofKind(files, 'post')]) {
      const slug = entry.file
        .split('/')
        .pop()!
        .replace(/\.mdx?$/, '');
      expect(lastmods.get(`/blog/${slug}`)).toBe(entry.data.published);
    }
    expect(lastmods.get('/services')).toBe(site.last_updated);
    const newestPost = ofKind(files, 'post')
      .map((p) => p.data.published as string)
      .sort()
      .pop()!;
    expect(lastmods.get('/blog')).toBe([site.last_updated, newestPost].sort().pop());
    expect(lastmods.size).toBe(sitePages().length);
    // The index dates its one part by the newest page in it.
    expect(index).toContain(`<lastmod>${[...lastmods.values()].sort().pop()}T00:00:00.000Z</lastmod>`);
  });

  it('/sitemap.md lists every page once, by section, as a titled link to its twin', () => {
    const md = readDist('sitemap.md');
    expect(md.startsWith(`# ${site.name}: sitemap\n\n> `)).toBe(true);
    expect(md).toContain(new URL('/llms.txt', base).href);
    const sections = [...md.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(sections).toEqual(['Company', 'Services', 'Evidence', 'Proposals and agents', 'Case studies', 'Blog']);
    const listed = [...md.matchAll(/^- \[([^\]]+)\]\((\S+)\): /gm)].map((m) => [m[1], pathOf(m[2]!)]);
    const expected = sitePages().map(({ path }) => [
      (load(/^---\n([\s\S]*?)\n---/.exec(readDist(twinOf(path)))![1]!) as { title: string }).title,
      `/${twinOf(path)}`,
    ]);
    expect([...listed].sort()).toEqual([...expected].sort());
    expect(readDist('llms.txt')).toContain(`](${new URL('/sitemap.md', base).href})`);
  });

  it('leaves no extra sitemap files behind', () => {
    expect(distFiles('sitemap*.xml').sort()).toEqual(['sitemap-0.xml', 'sitemap-index.xml']);
  });
});

describe('the MCP server, as discovery documents name it', () => {
  const card = JSON.parse(readDist('mcp/server-card'));
  const knowledgeJson = JSON.parse(readFileSync(join(root, '.generated/knowledge.json'), 'utf8'));

  it('GET /mcp/server-card is a file of that name, typed application/mcp-server-card+json by its path, never the function', () => {
    const toml = readFileSync(join(root, 'netlify.toml'), 'utf8');
    // No extension and no rewrite: the header of its own path is the only type any server gives it.
    expect(rewrites().has('/mcp/server-card')).toBe(false);
    expect(fileForPath('/mcp/server-card')).toBe('mcp/server-card');
    const block = toml.slice(toml.indexOf('for = "/mcp/server-card"')).split('[[headers]]')[0];
    expect(block).toContain('Content-Type = "application/mcp-server-card+json"');
    expect(block).toContain('Access-Control-Allow-Origin = "*"');
    // No other header rule types it: /mcp's own rules name /mcp and its 405 file exactly.
    expect([...toml.matchAll(/for = "([^"]+)"/g)].map((m) => m[1]).filter((f) => f!.startsWith('/mcp'))).toEqual([
      '/mcp',
      '/mcp-method-not-allowed.json',
      '/mcp/server-card',
    ]);
    // The function's paths are exact: the card's path never reaches it (netlify/functions/proposal.mts).
    const source = readFileSync(join(root, 'netlify/functions/proposal.mts'), 'utf8');
    expect(source).toMatch(/path: \['\/api\/proposal', '\/mcp', '\/confirm\/\*'\]/);
  });

  it('/mcp/server-card is valid against the SEP-2127 Server Card schema (vendored, tests/fixtures/schemas)', () => {
    expect(validateServerCard(card)).toEqual([]);
    // The schema takes only its own URL: the draft's earlier `v2` name is refused.
    expect(validateServerCard({ ...card, $schema: card.$schema.replace('/v1/', '/v2/') })).not.toEqual([]);
  });

  describe('/.well-known/mcp/server-card.json, the earlier card shape scanners still probe', () => {
    const earlier = JSON.parse(readDist('.well-known/mcp/server-card.json'));

    it('has serverInfo, transport and capabilities (the schema of tests/fixtures/schemas), as plain JSON', () => {
      expect(validateEarlierServerCard(earlier)).toEqual([]);
      expect(validateEarlierServerCard({ ...earlier, transport: { type: 'streamable-http' } })).not.toEqual([]);
      const toml = readFileSync(join(root, 'netlify.toml'), 'utf8');
      const block = toml.slice(toml.indexOf('for = "/.well-known/mcp/server-card.json"')).split('[[headers]]')[0];
      expect(block).toContain('Content-Type = "application/json; charset=utf-8"');
    });

    it('says what the SEP-2127 card says: the same title, version, description, site and endpoint', () => {
      expect(earlier).toMatchObject({
        serverInfo: { title: card.title, version: card.version },
        description: card.description,
        websiteUrl: card.websiteUrl,
        transport: { type: card.remotes[0].type, endpoint: card.remotes[0].url },
        authentication: { required: false },
      });
      expect(card.name.endsWith(`/${earlier.serverInfo.name}`)).toBe(true);
    });

    it('declares the serverInfo and capabilities the server itself answers initialize with', async () => {
      const res = await handler(
        new Request(card.remotes[0].url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
          }),
        }),
      );
      const { result } = await rpcMessage(res);
      expect(earlier.capabilities).toEqual(result.capabilities);
      expect(result.serverInfo).toMatchObject(earlier.serverInfo);
    });
  });

  it('/mcp/server-card has the current server card shape and names /mcp on this site', () => {
    expect(card.$schema).toBe('https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json');
    expect(card.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(card.name.startsWith(`${base.hostname.split('.').reverse().join('.')}/`)).toBe(true);
    expect(card.description.length).toBeGreaterThan(0);
    expect(card.description.length).toBeLessThanOrEqual(100);
    expect(card.title.length).toBeLessThanOrEqual(100);
    expect(Object.keys(card).sort()).toEqual(
      ['$schema', 'description', 'name', 'remotes', 'title', 'version', 'websiteUrl'].sort(),
    );
    expect(card.remotes).toEqual([
      {
        type: 'streamable-http',
        url: new URL('/mcp', base).href,
        supportedProtocolVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
      },
    ]);
    expect(knowledgeJson.urls.mcp).toBe(card.remotes[0].url);
  });

  describe('server.json, the entry of the official MCP Registry', () => {
    const entry = () => `${JSON.stringify(registryServerJson(knowledgeJson), null, 2)}\n`;

    it('is built from the canonical site, and the committed file is what its facts give (`-u` rewrites it)', async () => {
      expect(new URL(knowledgeJson.urls.home).origin, 'build without SITE_URL').toBe(base.origin);
      await expect(entry()).toMatchFileSnapshot('../../server.json');
    });

    it('is valid against the registry schema (vendored, tests/fixtures/schemas)', () => {
      const server = JSON.parse(readFileSync(join(root, 'server.json'), 'utf8'));
      expect(validateRegistryServer(server)).toEqual([]);
      expect(validateRegistryServer({ ...server, description: 'x'.repeat(101) })).not.toEqual([]);
    });

    it("names the server as the card does, a remote at the https endpoint, under the site's own domain", () => {
      const server = JSON.parse(entry());
      expect(server).toMatchObject({
        name: card.name,
        title: card.title,
        description: card.description,
        version: card.version,
        websiteUrl: card.websiteUrl,
        remotes: [{ type: 'streamable-http', url: card.remotes[0].url }],
      });
      expect(server.remotes[0].url).toMatch(/^https:\/\//);
      // Domain-verified namespaces are the domain reversed (the registry's HTTP login grants exactly that).
      expect(server.name.split('/')[0]).toBe(base.hostname.split('.').reverse().join('.'));
    });
  });

  it('serves /.well-known/mcp-registry-auth, typed text/plain, only when the build is given a key', () => {
    const given = Boolean(process.env['MCP_REGISTRY_PUBLIC_KEY']?.trim());
    expect(existsSync(join(root, 'dist/.well-known/mcp-registry-auth'))).toBe(given);
    expect(headerRules().get('/.well-known/mcp-registry-auth')?.get('Content-Type')).toBe(
      given ? 'text/plain; charset=utf-8' : undefined,
    );
    expect(rewrites().has('/.well-known/mcp-registry-auth')).toBe(false);
  });

  it('the AI catalog lists the card as an MCP server card', () => {
    const catalog = JSON.parse(readDist('.well-known/ai-catalog.json'));
    const entry = catalog.entries.find((e: { type: string }) => e.type === 'application/mcp-server-card+json');
    expect(pathOf(entry.url)).toBe('/mcp/server-card');
    expect(entry.capabilities).toEqual(['request_guidance', 'review_proposal_request', 'submit_proposal_request']);
  });

  it('the API catalog has an anchor for /mcp described by the card', () => {
    const { linkset } = JSON.parse(readDist('.well-known/api-catalog.json'));
    const mcp = linkset.find((l: { anchor: string }) => pathOf(l.anchor) === '/mcp');
    expect(mcp['service-desc']).toEqual([
      { href: new URL('/mcp/server-card', base).href, type: 'application/mcp-server-card+json' },
    ]);
    expect(pathOf(mcp['service-doc'][0].href)).toBe('/agents');
  });

  it('llms.txt, /agents and SKILL.md name the endpoint, the card and the tools', () => {
    const endpoint = new URL('/mcp', base).href;
    const cardUrl = new URL('/mcp/server-card', base).href;
    const llms = readDist('llms.txt');
    const skill = readDist('.well-known/agent-skills/request-a-proposal/SKILL.md');
    const agents = readDist(fileForPath('/agents')!);
    for (const [name, text] of [
      ['llms.txt', llms],
      ['SKILL.md', skill],
    ] as const) {
      expect(text, name).toContain(endpoint);
      expect(text, name).toContain(cardUrl);
      for (const tool of ['request_guidance', 'review_proposal_request', 'submit_proposal_request'])
        expect(text, name).toContain(tool);
    }
    expect(agents).toContain('id="mcp"');
    expect(agents).toContain(endpoint);
    expect(agents).toContain('href="/mcp/server-card"');
  });
});
