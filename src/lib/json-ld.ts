/**
 * schema.org JSON-LD for each page, typed with schema-dts: the partner as a ProfessionalService
 * on every page, a Service per capability on /services, an Article per post and case study, and
 * a BreadcrumbList below the home page. Built from the same model as the pages; the build fails
 * if it breaks a content rule.
 */
import type { Article, BreadcrumbList, Graph, ProfessionalService, Service, Thing } from 'schema-dts';
import type { SiteModel } from './content.ts';
import type { PageDocument } from './page-document.ts';
import { findViolations, ruleHelp } from './content-rules.ts';
import { lastUpdated } from './page-dates.ts';
import { absolute } from './urls.ts';
import { PAGE_PATHS } from '../schemas/paths.ts';

const organizationId = () => `${absolute('/')}#organization`;

function organization(model: SiteModel): ProfessionalService {
  const site = model.site.data;
  return {
    '@type': 'ProfessionalService',
    '@id': organizationId(),
    name: site.name,
    url: absolute('/'),
    email: site.email,
    description: site.summary,
    areaServed: site.delivery_regions,
    sameAs: [site.cloud_partner_profile],
  };
}

function services(model: SiteModel): Service[] {
  return model.capabilities.map(({ data: c }) => ({
    '@type': 'Service',
    '@id': `${absolute(PAGE_PATHS.services)}#${c.id}`,
    name: c.name,
    description: c.summary,
    serviceType: c.name,
    url: `${absolute(PAGE_PATHS.services)}#${c.id}`,
    provider: { '@id': organizationId() },
    areaServed: model.site.data.delivery_regions,
  }));
}

function article(model: SiteModel, doc: PageDocument & { published: string }): Article {
  const post = model.posts.find((p) => `/blog/${p.slug}` === doc.path);
  return {
    '@type': 'Article',
    headline: doc.title,
    description: doc.description,
    url: absolute(doc.path),
    mainEntityOfPage: absolute(doc.path),
    datePublished: doc.published,
    dateModified: lastUpdated(doc, model),
    author: post ? { '@type': 'Person', name: post.data.author } : { '@id': organizationId() },
    publisher: { '@id': organizationId() },
    ...(post && post.data.tags.length > 0 ? { keywords: post.data.tags.join(', ') } : {}),
  };
}

/** Home, then the section index for an entry or archive page, then the page itself. */
function breadcrumbs(doc: PageDocument, docs: PageDocument[]): BreadcrumbList {
  const section = `/${doc.path.split('/')[1]}`;
  const trail = [
    docs.find((d) => d.path === '/'),
    section !== doc.path ? docs.find((d) => d.path === section) : undefined,
    doc,
  ].filter((d): d is PageDocument => d !== undefined);
  return {
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((d, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: d.title,
      item: absolute(d.path),
    })),
  };
}

/** The JSON-LD graph of one page. */
export function jsonLdFor(doc: PageDocument, model: SiteModel, docs: PageDocument[]): Graph {
  const nodes: Thing[] = [organization(model)];
  if (doc.path === PAGE_PATHS.services) nodes.push(...services(model));
  if (doc.published) nodes.push(article(model, { ...doc, published: doc.published }));
  if (doc.path !== '/') nodes.push(breadcrumbs(doc, docs));
  const graph: Graph = { '@context': 'https://schema.org', '@graph': nodes };
  assertContentRules(doc.path, graph, model);
  return graph;
}

function assertContentRules(path: string, graph: Graph, model: SiteModel): void {
  const site = model.site.data;
  const identity = {
    name: site.name,
    cloudProvider: site.cloud_provider,
    cloudProviderFullName: site.cloud_provider_full_name,
  };
  const violations = findViolations(JSON.stringify(graph), identity);
  if (violations.length > 0) {
    throw new Error(
      `JSON-LD of ${path} breaks a content rule: ${violations.map((v) => `"${v.text}": ${ruleHelp(v.rule)}`).join('; ')}`,
    );
  }
}

/** JSON for a `<script type="application/ld+json">`: `<` escaped so no text can close the element. */
export function jsonLdScript(graph: Graph): string {
  return JSON.stringify(graph).replace(/</g, '\\u003c');
}
