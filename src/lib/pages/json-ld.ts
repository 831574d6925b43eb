/**
 * schema.org JSON-LD for each page, typed with schema-dts: the partner as a ProfessionalService
 * on every page, a Service per capability on /services, an Article per post and case study, and
 * a BreadcrumbList below the home page. Built from the same model as the pages; the build fails
 * if it breaks a content rule.
 */
import type {
  Article,
  BreadcrumbList,
  EducationalOccupationalCredential,
  Graph,
  Person,
  ProfessionalService,
  Quotation,
  Service,
  Thing,
} from 'schema-dts';
import type { SiteModel } from '../content/model.ts';
import { scriptJson, type PageDocument } from './page-document.ts';
import { findViolations, RULE_HELP } from '../content/rules.ts';
import { documentsByPath } from './documents.ts';
import { oncePer } from '../memo.ts';
import { absolute } from './urls.ts';
import { caseStudyPath, PAGE_PATHS, postPath } from '../../contract/paths.ts';

const organizationId = () => `${absolute('/')}#organization`;

const personId = (slug: string) => `${absolute(PAGE_PATHS.about)}#${slug}`;

function person(x: SiteModel['people'][number]): Person {
  return {
    '@type': 'Person',
    '@id': personId(x.slug),
    name: x.data.name,
    jobTitle: x.data.role,
    image: x.data.photo.src,
    url: personId(x.slug),
    worksFor: { '@id': organizationId() },
  };
}

/** The partner: its contact facts, offices, tier and competencies (as awards and credentials the provider recognizes). */
function organization(model: SiteModel): ProfessionalService {
  const site = model.site.data;
  const e = model.evidence.data;
  const provider = { '@type': 'Organization', name: site.cloud_provider_full_name } as const;
  const credential = (name: string, category: string): EducationalOccupationalCredential => ({
    '@type': 'EducationalOccupationalCredential',
    name,
    credentialCategory: category,
    recognizedBy: provider,
  });
  return {
    '@type': 'ProfessionalService',
    '@id': organizationId(),
    name: site.name,
    legalName: site.legal_name,
    url: absolute('/'),
    logo: site.logo.src,
    image: site.logo.src,
    email: site.email,
    telephone: site.phone,
    foundingDate: site.founded,
    numberOfEmployees: { '@type': 'QuantitativeValue', value: Number.parseInt(site.headcount, 10) },
    address: site.offices.map((o) => ({ '@type': 'PostalAddress', addressLocality: o.city, streetAddress: o.address })),
    description: site.summary,
    areaServed: site.delivery_regions,
    award: [e.tier.name, ...e.competencies.map((c) => `${site.cloud_provider} ${c.name} Competency`)],
    hasCredential: [
      credential(e.tier.name, 'partner tier'),
      ...e.competencies.map((c) => credential(`${site.cloud_provider} ${c.name} Competency`, 'competency')),
    ],
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

/** A post's author: the person on /about, with the same id. */
function authorOf(model: SiteModel, name: string): Person {
  const x = model.people.find((y) => y.data.name === name);
  return x ? person(x) : { '@type': 'Person', name };
}

/** The case studies by path, for their quotes. */
const caseStudiesByPath = oncePer(
  (model: SiteModel) => new Map(model.caseStudies.map((c) => [caseStudyPath(c.slug), c])),
);

/** What a client said on its case study, and who said it. */
function quotation(model: SiteModel, path: string): Quotation[] {
  const c = caseStudiesByPath(model).get(path);
  if (!c?.data.quote) return [];
  const { text, name, role } = c.data.quote;
  return [
    {
      '@type': 'Quotation',
      text,
      creator: { '@type': 'Person', name, jobTitle: role, worksFor: { '@type': 'Organization', name: c.data.client } },
      isPartOf: { '@id': `${absolute(path)}#article` },
    },
  ];
}

/** The posts by path: one lookup table per model, not a scan of every post per page. */
const postsByPath = oncePer((model: SiteModel) => new Map(model.posts.map((p) => [postPath(p.slug), p])));

function article(model: SiteModel, doc: PageDocument & { published: string }): Article {
  const post = postsByPath(model).get(doc.path);
  return {
    '@type': 'Article',
    '@id': `${absolute(doc.path)}#article`,
    headline: doc.title,
    description: doc.description,
    url: absolute(doc.path),
    mainEntityOfPage: absolute(doc.path),
    datePublished: doc.published,
    dateModified: doc.updated,
    author: post ? authorOf(model, post.data.author) : { '@id': organizationId() },
    publisher: { '@id': organizationId() },
    ...(post && post.data.tags.length > 0 ? { keywords: post.data.tags.join(', ') } : {}),
  };
}

/** Home, then the section index for an entry or archive page, then the page itself. */
function breadcrumbs(doc: PageDocument, model: SiteModel): BreadcrumbList {
  const section = `/${doc.path.split('/')[1]}`;
  const pages = documentsByPath(model);
  const trail = [pages.get('/'), section !== doc.path ? pages.get(section) : undefined, doc].filter(
    (d) => d !== undefined,
  );
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

/** The nodes every page (or /services) repeats: built and checked once per model, not once per page. */
const shared = oncePer((model: SiteModel) => {
  const nodes = { organization: organization(model), services: services(model) };
  assertContentRules('every page', nodes.organization, model);
  assertContentRules(PAGE_PATHS.services, nodes.services, model);
  return nodes;
});

/** The JSON-LD graph of one page, as the text of its `<script type="application/ld+json">`. */
export function jsonLdScript(doc: PageDocument, model: SiteModel): string {
  const { organization, services } = shared(model);
  const own: Thing[] = [];
  if (doc.published) own.push(article(model, { ...doc, published: doc.published }), ...quotation(model, doc.path));
  // The people on /about; an author elsewhere carries the same id.
  if (doc.path === PAGE_PATHS.about) own.push(...model.people.map(person));
  if (doc.path !== '/') own.push(breadcrumbs(doc, model));
  assertContentRules(doc.path, own, model);
  const nodes: Thing[] = [organization, ...(doc.path === PAGE_PATHS.services ? services : []), ...own];
  return scriptJson({ '@context': 'https://schema.org', '@graph': nodes } satisfies Graph);
}

function assertContentRules(path: string, nodes: Thing | Thing[], model: SiteModel): void {
  const violations = findViolations(JSON.stringify(nodes), model.site.data);
  if (violations.length > 0) {
    throw new Error(
      `JSON-LD of ${path} breaks a content rule: ${violations.map((v) => `"${v.text}": ${RULE_HELP[v.rule]}`).join('; ')}`,
    );
  }
}
