/**
 * RFC 8288 `Link` headers for the static pages, written by the build into `dist/_headers`
 * (Netlify and `netlify serve` honour it): each page points to its markdown twin and to the
 * llms.txt that describes it; the home page also points to the API catalog and descriptions.
 */
import { absolute } from '../pages/urls.ts';
import { DOCUMENT_PATHS, PAGE_PATHS, twinPath } from '../../contract/paths.ts';

/** The media type ARD registers for an ai-catalog.json (netlify.toml serves it so on Netlify). */
export const AI_CATALOG_MEDIA_TYPE = 'application/ai-catalog+json';

/** One link-value: `<url>; rel="..."; type="..."`. */
export interface LinkValue {
  href: string;
  rel: string;
  type?: string;
}

export function formatLink({ href, rel, type }: LinkValue): string {
  return `<${href}>; rel="${rel}"${type ? `; type="${type}"` : ''}`;
}

/** The relations every HTML page carries. */
export function pageLinks(path: string): LinkValue[] {
  return [
    { href: absolute(twinPath(path)), rel: 'alternate', type: 'text/markdown' },
    { href: absolute(DOCUMENT_PATHS.llmsTxt), rel: 'describedby', type: 'text/plain' },
  ];
}

/** The API catalog relation: sent by `/` and by a HEAD (or GET) of the catalog itself (RFC 9727 section 3). */
export function apiCatalogLink(): LinkValue {
  return { href: absolute(DOCUMENT_PATHS.apiCatalog), rel: 'api-catalog', type: 'application/linkset+json' };
}

/**
 * The AI catalog (ARD), on every page. Root-relative on purpose: readers resolve it against the
 * page they fetched, so it names this host's catalog on a deploy preview or `npm start` too,
 * where an absolute link to the canonical host would send them to production.
 */
export function aiCatalogLink(): LinkValue {
  return { href: DOCUMENT_PATHS.aiCatalog, rel: 'ai-catalog', type: AI_CATALOG_MEDIA_TYPE };
}

/** The home page's extra relations: where the APIs are catalogued, described and documented. */
export function homeLinks(): LinkValue[] {
  return [
    apiCatalogLink(),
    { href: absolute(DOCUMENT_PATHS.openapi), rel: 'service-desc', type: 'application/openapi+json' },
    { href: absolute(PAGE_PATHS.agents), rel: 'service-doc', type: 'text/html' },
  ];
}

/** Every link-value of a page's `Link` header. */
export function linksOf(path: string): LinkValue[] {
  return [...pageLinks(path), ...(path === '/' ? homeLinks() : []), aiCatalogLink()];
}
