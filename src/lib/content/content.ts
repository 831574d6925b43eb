/** The only caller of `getCollection`: the content, checked, as the typed model every output derives from. */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { getCollection, type CollectionEntry } from 'astro:content';
import type { EntryData, KindData, SiteData } from './entry-schema.ts';
import { PAGE_IDS, type PageId } from '../../contract/ids.ts';
import { duplicateProblems, mapStrings, ruleProblems } from './entry-checks.ts';
import { markdownForm, mdxProblems } from './mdx-components.ts';
import { bodyFirstLine, isOtherSite, isRootRelative, rewriteLinks, scanLinks, type SourcedLink } from './links.ts';
import { publishImage } from './images.ts';
import { expandPlaceholders } from './placeholders.ts';
import { absolute } from '../pages/urls.ts';
import { CONTENT_DIR, PUBLIC_DIR } from './project-dirs.ts';
import { checkContentFiles, hasMdxFiles } from './check.ts';
import { ContentError, throwIfProblems } from './error.ts';

export interface Sourced<T> {
  data: T;
  body: string;
  /** `content/<path>`, for error messages. */
  file: string;
  slug: string;
  /** An .mdx entry, which its page renders through @astrojs/mdx; `body` is its markdown form. */
  mdx?: CollectionEntry<'mdx'>;
}

type Of<K extends EntryData['kind']> = Sourced<KindData<K>>;

/** Placeholders filled in; links recorded for the link check and made absolute for the agent documents. */
async function prepare(
  entry: CollectionEntry<'entries' | 'mdx'>,
  site: SiteData,
  links: SourcedLink[],
  problems: string[],
): Promise<Sourced<EntryData>> {
  const path = resolve(entry.filePath ?? `content/${entry.id}`);
  const file = `content/${relative(CONTENT_DIR, path)}`;
  const mdx = entry.collection === 'mdx' ? entry : undefined;
  problems.push(...mdxProblems(file, entry.body ?? ''));
  const rawBody = mdx ? markdownForm(mdx.body ?? '') : (entry.body ?? '');
  const expand = (text: string, where: string) =>
    expandPlaceholders(text, site, (written, suggestion) =>
      problems.push(`${where}: "${written}" is not a placeholder; did you mean ${suggestion}?`),
    );
  // Images in the body, as written → as published.
  const images = new Map<string, string>();
  const publishLinks = (text: string, where: (line: number) => string, firstLine: number) =>
    rewriteLinks(text, firstLine, ({ kind, href, line }) => {
      if (kind === 'link') links.push({ where: where(line), href, context: '' });
      const target = kind === 'image' ? (images.get(href) ?? href) : href;
      return isRootRelative(target) ? absolute(target) : target;
    });

  const firstLine = rawBody.trim() ? bodyFirstLine(readFileSync(path, 'utf8'), entry.body ?? '') : 1;
  const expandedBody = expand(rawBody, file);
  for (const image of scanLinks(expandedBody, firstLine)) {
    if (image.kind === 'image' && !images.has(image.href) && !isOtherSite(image.href)) {
      images.set(image.href, await publishImage(image.href, entry.filePath ?? file, image.text));
    }
  }
  const before = links.length;
  const body = publishLinks(expandedBody, (line) => `${file}:${line}`, firstLine).trim();
  const data = mapStrings(entry.data, [], (text, field) =>
    publishLinks(expand(text, `${file}: ${field}`), () => `${file}: ${field}`, 1),
  ) as EntryData;
  // `#heading` links resolve on the page that shows this entry's body.
  for (const link of links.slice(before)) link.context = body;
  return { data, body, file, slug: entry.id.split('/').pop()!, ...(mdx ? { mdx } : {}) };
}

function ofKind<K extends EntryData['kind']>(entries: Sourced<EntryData>[], kind: K): Of<K>[] {
  return entries.filter((e): e is Of<K> => e.data.kind === kind);
}

function single<T extends { file: string }>(items: T[], kind: string): T {
  const [first, second] = items;
  if (!first) throw new ContentError(`content/: no published entry of kind "${kind}"; add exactly one`);
  if (second)
    throw new ContentError(`${second.file}: a second entry of kind "${kind}" (the first is ${first.file}); keep one`);
  return first;
}

const byOrder = <T extends { order: number }>(a: Sourced<T>, b: Sourced<T>) => a.data.order - b.data.order;
const newestFirst = <T extends { published: string }>(a: Sourced<T>, b: Sourced<T>) =>
  b.data.published.localeCompare(a.data.published) || a.slug.localeCompare(b.slug);

async function load() {
  // Drafts are dropped here and only here, so no output can publish one.
  const mdx = import.meta.env.DEV || hasMdxFiles(CONTENT_DIR) ? await getCollection('mdx') : [];
  const entries = [...(await getCollection('entries')), ...mdx].filter((e) => !e.data.draft);

  const rawSite = single(
    entries.flatMap((e) => (e.data.kind === 'site' ? [{ data: e.data, file: e.filePath ?? 'content/site.md' }] : [])),
    'site',
  ).data;
  const links: SourcedLink[] = [];
  const problems: string[] = [];
  const all = await Promise.all(entries.map((e) => prepare(e, rawSite, links, problems)));
  const site = single(ofKind(all, 'site'), 'site');
  const pageList = ofKind(all, 'page');
  const audiences = ofKind(all, 'audience');
  const capabilities = ofKind(all, 'capability').sort(byOrder);
  const engagementModels = ofKind(all, 'engagement-model').sort(byOrder);
  problems.push(
    ...ruleProblems(all, site.data),
    ...duplicateProblems(pageList, (p) => p.data.page, 'page'),
    ...duplicateProblems(audiences, (a) => a.data.id, 'audience id'),
    ...duplicateProblems(capabilities, (c) => c.data.id, 'capability id'),
    ...duplicateProblems(engagementModels, (m) => m.data.id, 'engagement model id'),
  );
  throwIfProblems('Content needs fixing', problems);

  const pages = Object.fromEntries(pageList.map((p) => [p.data.page, p])) as Record<PageId, Of<'page'>>;
  const missing = PAGE_IDS.filter((id) => !pages[id]);
  if (missing.length > 0) {
    throw new ContentError(`content/pages/: missing page entries for: ${missing.join(', ')} (kind: page, page: <id>)`);
  }

  const caseStudies = ofKind(all, 'case-study').sort(newestFirst);
  const evidence = single(ofKind(all, 'evidence'), 'evidence');
  const clients = [...new Set([...caseStudies.map((c) => c.data.client), ...evidence.data.other_clients])];

  return {
    site,
    pages,
    audiences,
    capabilities,
    engagementModels,
    programSupport: single(ofKind(all, 'program-support'), 'program-support'),
    // Every case study's client, newest first, then `other_clients`.
    evidence: { ...evidence, data: { ...evidence.data, selected_client_experience: clients } },
    caseStudies,
    posts: ofKind(all, 'post').sort(newestFirst),
    links,
  };
}

export type SiteModel = Awaited<ReturnType<typeof load>>;

let cached: Promise<SiteModel> | undefined;

export async function siteModel(): Promise<SiteModel> {
  // In dev, Astro keeps a file's old data when it cannot reload it and says so only in the terminal.
  if (import.meta.env.DEV) checkContentFiles(CONTENT_DIR, PUBLIC_DIR);
  return (cached ??= load());
}
