/**
 * Every path the site and the proposal function publish, written once. Pages, twins, documents,
 * the capabilities document, the function's knowledge, the OpenAPI description and the function
 * itself take their paths from here. Site-relative, without a trailing slash.
 */
import type { PageId } from './ids.ts';

/** Path of each fixed page, by its id in content/pages/. */
export const PAGE_PATHS = {
  home: '/',
  agents: '/agents',
  services: '/services',
  'delivery-models': '/delivery-models',
  partners: '/partners',
  about: '/about',
  'aws-credentials': '/aws-credentials',
  'case-studies': '/case-studies',
  blog: '/blog',
  proposal: '/proposal',
  privacy: '/privacy',
} as const satisfies Record<PageId, string>;

/** The proposal function's path: GET is the contract (built by Astro, served by the function), POST an action. */
export const PROPOSAL_API_PATH = '/api/proposal';
/** The function's MCP endpoint (Streamable HTTP, POST only). */
export const MCP_PATH = '/mcp';

/** Documents published beside the pages, for agents and crawlers. */
export const DOCUMENT_PATHS = {
  proposalApi: PROPOSAL_API_PATH,
  mcp: MCP_PATH,
  mcpServerCard: '/.well-known/mcp/server-card.json',
  capabilities: '/api/capabilities',
  capabilitiesSchema: '/schemas/capabilities.schema.json',
  openapi: '/openapi.json',
  llmsTxt: '/llms.txt',
  llmsFull: '/llms-full.txt',
  sitemap: '/sitemap-index.xml',
  robots: '/robots.txt',
  rss: '/rss.xml',
  apiCatalog: '/.well-known/api-catalog',
  aiCatalog: '/.well-known/ai-catalog.json',
  agentSkills: '/.well-known/agent-skills',
  agentSkillsIndex: '/.well-known/agent-skills/index.json',
} as const;

/** Where the per-section full-text files live: `/llms-full/blog.txt`, then `/llms-full/blog-2.txt`, ... */
export const LLMS_FULL_SECTIONS_PATH = '/llms-full';

/** Path of part `part` (from 1) of a section's full text; `section` is its slug (`case-studies`). */
export const llmsFullSectionPath = (section: string, part: number) =>
  `${LLMS_FULL_SECTIONS_PATH}/${section}${part > 1 ? `-${part}` : ''}.txt`;

/** The index rule: the home page `/` is stored and routed as `index`. */
const INDEX_NAME = 'index';

/** Path of a page's markdown twin: `/` → `/index.md`, `/services` → `/services.md`. */
export function twinPath(path: string): string {
  return `/${twinParam(path)}.md`;
}

/** Route parameter of a twin, its path without `/` and `.md`: `/` → `index`, `/blog/x` → `blog/x`. */
export function twinParam(path: string): string {
  return path === '/' ? INDEX_NAME : path.slice(1);
}

/** Entries per index page (/blog, /case-studies): keeps every index within the 14 KB first-flight budget as content grows. */
export const INDEX_PAGE_SIZE = 20;

/** Path of page `n` (from 1) of a paginated index: `/blog`, then `/blog/archive/2`, ... */
export function indexPagePath(basePath: string, n: number): string {
  return n === 1 ? basePath : `${archivePrefix(basePath)}${n}`;
}

/** What every later page of a paginated index starts with: `/blog/archive/`. */
export const archivePrefix = (basePath: string) => `${basePath}/archive/`;

/** Site paths of entries, used by pages, twins and feeds alike. */
export const caseStudyPath = (slug: string) => `${PAGE_PATHS['case-studies']}/${slug}`;
export const postPath = (slug: string) => `${PAGE_PATHS.blog}/${slug}`;

/** A tag as a URL segment: lower case, words joined by hyphens ("generative ai" → "generative-ai"). */
export const tagSlug = (tag: string) =>
  tag
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');

/** Where the blog's tag pages live. */
export const TAGS_PATH = `${PAGE_PATHS.blog}/tags`;

/** Path of a blog tag's (first) page; later pages follow indexPagePath. */
export const tagPath = (tag: string) => `${TAGS_PATH}/${tagSlug(tag)}`;
