/** Every path the site and the proposal function publish, written once: site-relative, no trailing slash. */
import { PAGE_IDS, type PageId } from './ids.ts';

/** Path of each fixed page, by its id in content/pages/: `/<id>`, and `/` for `home`. */
const pagePath = (id: PageId) => (id === 'home' ? '/' : `/${id}`);
export const PAGE_PATHS = Object.fromEntries(PAGE_IDS.map((id) => [id, pagePath(id)])) as Record<PageId, string>;

export const DOCUMENT_PATHS = {
  proposalApi: '/api/proposal',
  /** The pages the confirmation email's links open, one button each; a press posts to the function (CONSENT_PAGES). */
  consentPages: '/confirm',
  mcp: '/mcp',
  /** The MCP server card where the server-card draft (July 2026) reserves it: `<endpoint>/server-card`. */
  mcpServerCard: '/mcp/server-card',
  /** The card's earlier home, "not recommended" by that draft; the earlier card shape, kept while scanners probe it. */
  mcpServerCardWellKnown: '/.well-known/mcp/server-card.json',
  capabilities: '/api/capabilities',
  capabilitiesSchema: '/schemas/capabilities.schema.json',
  openapi: '/openapi.json',
  llmsTxt: '/llms.txt',
  llmsFull: '/llms-full.txt',
  sitemap: '/sitemap-index.xml',
  /** Every page by section, linked to its twin: sitemap.xml's markdown counterpart for agents. */
  sitemapMd: '/sitemap.md',
  robots: '/robots.txt',
  rss: '/rss.xml',
  apiCatalog: '/.well-known/api-catalog',
  aiCatalog: '/.well-known/ai-catalog.json',
  agentSkills: '/.well-known/agent-skills',
  agentSkillsIndex: '/.well-known/agent-skills/index.json',
  /** The MCP Registry's proof of the domain, served only when the build is given the partner's public key. */
  mcpRegistryAuth: '/.well-known/mcp-registry-auth',
} as const;

/** Each answer's page: "Yes, this was me" and "Not me"; their links carry the request and token in the query. */
export const CONSENT_PAGES = {
  confirm: `${DOCUMENT_PATHS.consentPages}/yes`,
  deny: `${DOCUMENT_PATHS.consentPages}/not-me`,
} as const;

/** Part `part` (from 1) of a section's full text: `/llms-full/blog.txt`, then `/llms-full/blog-2.txt`, ... */
export const llmsFullSectionPath = (section: string, part: number) =>
  `/llms-full/${section}${part > 1 ? `-${part}` : ''}.txt`;

/** Path of a page's markdown twin: `/` → `/index.md`, `/services` → `/services.md`. */
export function twinPath(path: string): string {
  return `/${path === '/' ? 'index' : path.slice(1)}.md`;
}

/** Entries per index page (/blog, /case-studies): keeps every index within the 14 KB first-flight budget as content grows. */
export const INDEX_PAGE_SIZE = 20;

/** Path of page `n` (from 1) of a paginated index: `/blog`, then `/blog/archive/2`, ... */
export function indexPagePath(basePath: string, n: number): string {
  return n === 1 ? basePath : `${basePath}/archive/${n}`;
}

export const caseStudyPath = (slug: string) => `${PAGE_PATHS['case-studies']}/${slug}`;
export const postPath = (slug: string) => `${PAGE_PATHS.blog}/${slug}`;

/** A tag as a URL segment: lower case, words joined by hyphens ("generative ai" → "generative-ai"). */
export const tagSlug = (tag: string) =>
  tag
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');

/** Path of a blog tag's (first) page; later pages follow indexPagePath. */
export const tagPath = (tag: string) => `${PAGE_PATHS.blog}/tags/${tagSlug(tag)}`;
