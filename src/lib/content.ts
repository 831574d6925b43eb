/**
 * The only caller of `getCollection`: loads the one content collection once, drops drafts,
 * checks structure and content rules, and returns the typed model every output derives from.
 */
import { getCollection, type CollectionEntry } from 'astro:content';
import type {
  AudienceData,
  CapabilityData,
  CaseStudyData,
  EngagementModelData,
  EntryData,
  EvidenceData,
  PageData,
  PostData,
  ProgramSupportData,
  SiteData,
} from '../schemas/entry.ts';
import { PAGE_IDS, type PageId } from '../schemas/ids.ts';
import { findViolations, ruleHelp, type Identity } from './content-rules.ts';

/** An entry's data with its markdown body and where it came from. */
export interface Sourced<T> {
  data: T;
  body: string;
  /** Path of the source file, relative to the project root, for error messages. */
  file: string;
  /** Last path segment of the entry id, used in URLs. */
  slug: string;
}

export interface SiteModel {
  site: Sourced<SiteData>;
  pages: Record<PageId, Sourced<PageData>>;
  audiences: Sourced<AudienceData>[];
  capabilities: Sourced<CapabilityData>[];
  engagementModels: Sourced<EngagementModelData>[];
  programSupport: Sourced<ProgramSupportData>;
  evidence: Sourced<EvidenceData>;
  /** Newest first. */
  caseStudies: Sourced<CaseStudyData>[];
  /** Newest first. */
  posts: Sourced<PostData>[];
}

/** A build error that names the content file and what to change. */
export class ContentError extends Error {
  constructor(file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'ContentError';
  }
}

type Entry = CollectionEntry<'entries'>;

function sourced<T extends EntryData>(entry: Entry & { data: T }): Sourced<T> {
  return {
    data: entry.data,
    body: (entry.body ?? '').trim(),
    file: entry.filePath ?? `content/${entry.id}`,
    slug: entry.id.split('/').pop() ?? entry.id,
  };
}

function ofKind<K extends EntryData['kind']>(entries: Entry[], kind: K): Sourced<Extract<EntryData, { kind: K }>>[] {
  return entries
    .filter((e): e is Entry & { data: Extract<EntryData, { kind: K }> } => e.data.kind === kind)
    .map((e) => sourced(e));
}

function single<T>(items: Sourced<T>[], kind: string): Sourced<T> {
  const [first, second] = items;
  if (!first) throw new ContentError('content/', `no published entry of kind "${kind}"; add exactly one`);
  if (second) throw new ContentError(second.file, `a second entry of kind "${kind}" (the first is ${first.file}); keep one`);
  return first;
}

function unique<T>(items: Sourced<T>[], key: (item: T) => string, field: string): void {
  const seen = new Map<string, string>();
  for (const item of items) {
    const k = key(item.data);
    const other = seen.get(k);
    if (other) throw new ContentError(item.file, `${field} "${k}" is already used by ${other}`);
    seen.set(k, item.file);
  }
}

/** Every string in an entry's frontmatter, with the field path that holds it. */
function* stringFields(value: unknown, path: string): Generator<[string, string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* stringFields(v, `${path}[${i}]`);
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) yield* stringFields(v, path ? `${path}.${k}` : k);
}

/**
 * Pages, twins and llms files render every body as the same markdown, so an .mdx body may use
 * markdown only: an import, an export or a component would reach readers as raw text.
 */
function checkMdxBodies(entries: Sourced<EntryData>[]): void {
  for (const entry of entries) {
    if (!entry.file.endsWith('.mdx')) continue;
    const jsx = /^(?:import|export)\s|<[A-Z][\w.]*[\s/>]/m.exec(entry.body);
    if (jsx) {
      throw new ContentError(entry.file, `body: "${jsx[0].trim()}": components, imports and exports are not supported; write plain markdown (the page, its markdown twin and llms-full.txt render the same text)`);
    }
  }
}

function checkContentRules(entries: Sourced<EntryData>[], identity: Identity): void {
  const problems: string[] = [];
  for (const entry of entries) {
    const texts: [string, string][] = [...stringFields(entry.data, ''), ['body', entry.body]];
    for (const [field, text] of texts) {
      for (const v of findViolations(text, identity)) {
        problems.push(`${entry.file}: ${field}: "${v.text}" breaks the rule "${v.rule}": ${ruleHelp(v.rule)}`);
      }
    }
  }
  if (problems.length > 0) {
    throw new Error(`Content rules broken in ${problems.length} place(s):\n  ${problems.join('\n  ')}`);
  }
}

const byOrder = <T extends { order: number }>(a: Sourced<T>, b: Sourced<T>) => a.data.order - b.data.order;
const newestFirst = <T extends { published: string }>(a: Sourced<T>, b: Sourced<T>) =>
  b.data.published.localeCompare(a.data.published) || a.slug.localeCompare(b.slug);

async function load(): Promise<SiteModel> {
  // Drafts are dropped here and only here, so no output can publish one.
  const entries = (await getCollection('entries')).filter((e) => !e.data.draft);

  const site = single(ofKind(entries, 'site'), 'site');
  const identity: Identity = {
    name: site.data.name,
    cloudProvider: site.data.cloud_provider,
    cloudProviderFullName: site.data.cloud_provider_full_name,
  };
  const all = entries.map((e) => sourced(e));
  checkMdxBodies(all);
  checkContentRules(all, identity);

  const pageList = ofKind(entries, 'page');
  unique(pageList, (p) => p.page, 'page');
  const pages = Object.fromEntries(pageList.map((p) => [p.data.page, p])) as Partial<Record<PageId, Sourced<PageData>>>;
  const missing = PAGE_IDS.filter((id) => !pages[id]);
  if (missing.length > 0) {
    throw new ContentError('content/pages/', `missing page entries for: ${missing.join(', ')} (kind: page, page: <id>)`);
  }

  const audiences = ofKind(entries, 'audience');
  const capabilities = ofKind(entries, 'capability').sort(byOrder);
  const engagementModels = ofKind(entries, 'engagement-model').sort(byOrder);
  unique(audiences, (a) => a.id, 'audience id');
  unique(capabilities, (c) => c.id, 'capability id');
  unique(engagementModels, (m) => m.id, 'engagement model id');

  return {
    site,
    pages: pages as Record<PageId, Sourced<PageData>>,
    audiences,
    capabilities,
    engagementModels,
    programSupport: single(ofKind(entries, 'program-support'), 'program-support'),
    evidence: single(ofKind(entries, 'evidence'), 'evidence'),
    caseStudies: ofKind(entries, 'case-study').sort(newestFirst),
    posts: ofKind(entries, 'post').sort(newestFirst),
  };
}

let cached: Promise<SiteModel> | undefined;

/** The site model, loaded once per build. */
export function siteModel(): Promise<SiteModel> {
  cached ??= load();
  return cached;
}
