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
} as const satisfies Record<PageId, string>;

/** Documents published beside the pages, for agents and crawlers. */
export const DOCUMENT_PATHS = {
  proposalApi: '/api/proposal',
  capabilities: '/api/capabilities',
  capabilitiesSchema: '/schemas/capabilities.schema.json',
  openapi: '/openapi.json',
  llmsTxt: '/llms.txt',
  llmsFull: '/llms-full.txt',
  sitemap: '/sitemap.xml',
  robots: '/robots.txt',
  rss: '/rss.xml',
  apiCatalog: '/.well-known/api-catalog',
  aiCatalog: '/.well-known/ai-catalog.json',
  agentSkillsIndex: '/.well-known/agent-skills/index.json',
} as const;

/** Path of a page's markdown twin: `/` → `/index.md`, `/services` → `/services.md`. */
export function twinPath(path: string): string {
  return path === '/' ? '/index.md' : `${path}.md`;
}

/** Path of every agent resource (spec 2.9), in the order they are published. */
export const AGENT_RESOURCE_PATHS = {
  directory: PAGE_PATHS.agents,
  solutions: PAGE_PATHS.services,
  delivery_models: PAGE_PATHS['delivery-models'],
  partners: PAGE_PATHS.partners,
  about: PAGE_PATHS.about,
  credentials: PAGE_PATHS['aws-credentials'],
  case_studies: PAGE_PATHS['case-studies'],
  blog: PAGE_PATHS.blog,
  overview: DOCUMENT_PATHS.llmsTxt,
  full_context: DOCUMENT_PATHS.llmsFull,
  homepage_markdown: '/index.md',
  sitemap: DOCUMENT_PATHS.sitemap,
} as const;

/** Site paths of entries, used by pages, twins and feeds alike. */
export const caseStudyPath = (slug: string) => `${PAGE_PATHS['case-studies']}/${slug}`;
export const postPath = (slug: string) => `${PAGE_PATHS.blog}/${slug}`;

/** A tag as a URL segment: lower case, words joined by hyphens ("generative ai" → "generative-ai"). */
export const tagSlug = (tag: string) =>
  tag
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');

/** Path of a blog tag's page. */
export const tagPath = (tag: string) => `${PAGE_PATHS.blog}/tags/${tagSlug(tag)}`;
