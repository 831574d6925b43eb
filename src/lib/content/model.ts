/** The only caller of `getCollection`: the content, checked, as the typed model every output derives from. */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { getCollection, type CollectionEntry } from 'astro:content';
import type { EntryData, KindData, SiteData } from './entry-schema.ts';
import { PAGE_IDS, type PageId } from '../../contract/ids.ts';
import { duplicateProblems, mapStrings, ruleProblems } from './entry-checks.ts';
import { fieldPosition, locate, position, type Problem } from './problem.ts';
import { PRIVACY_SECTIONS, SITE_PAGE_IDS } from './page-sections.ts';
import { caseStudyPath, PAGE_PATHS, postPath, tagPath, tagSlug } from '../../contract/paths.ts';
import { nearest } from '../../text/nearest.ts';
import { markdownForm, mdxProblems } from './mdx-components.ts';
import { bodyFirstLine, isOtherSite, isRootRelative, rewriteLinks, scanLinks, type SourcedLink } from './links.ts';
import { publishImage } from './images.ts';
import { expandPlaceholders } from './placeholders.ts';
import { absolute } from '../pages/urls.ts';
import { CONTENT_DIR, PUBLIC_DIR } from './project-dirs.ts';
import { checkContentFiles, hasMdxFiles } from './check.ts';
import { ContentError } from './error.ts';

export interface Sourced<T> {
  data: T;
  body: string;
  /** `content/<path>`, for error messages. */
  file: string;
  /** The file as written, to locate a problem's line and column. */
  raw: string;
  slug: string;
  /** An .mdx entry, which its page renders through @astrojs/mdx; `body` is its markdown form. */
  mdx?: CollectionEntry<'mdx'>;
}

type Of<K extends EntryData['kind']> = Sourced<KindData<K>>;

/** Every file of content/pages/: the pages at fixed paths and the site's own (the 404 page). */
const CONTENT_PAGE_IDS = [...PAGE_IDS, ...SITE_PAGE_IDS];
type ContentPageId = (typeof CONTENT_PAGE_IDS)[number];

/** Each placeholder's text and how it is written, to find a filled-in passage in the file as written. */
const placeholderValues = (site: SiteData): Record<string, string> => ({
  [site.name]: '{partner}',
  [site.cloud_provider_full_name]: '{provider_full_name}',
  [site.cloud_provider]: '{provider}',
  [site.email]: '{email}',
});

/** Placeholders filled in; links recorded for the link check and made absolute for the agent documents. */
async function prepare(
  entry: CollectionEntry<'entries' | 'mdx'>,
  site: SiteData,
  links: SourcedLink[],
  problems: Problem[],
): Promise<Sourced<EntryData>> {
  const path = resolve(entry.filePath ?? `content/${entry.id}`);
  const file = `content/${relative(CONTENT_DIR, path)}`;
  const raw = readFileSync(path, 'utf8');
  const mdx = entry.collection === 'mdx' ? entry : undefined;
  problems.push(...mdxProblems(file, entry.body ?? '', raw));
  const rawBody = mdx ? markdownForm(mdx.body ?? '') : (entry.body ?? '');
  const bodyStart = Math.max(0, raw.indexOf('\n---', 3) + 4);
  const expand = (text: string, field: string) =>
    expandPlaceholders(text, site, (written, suggestion) => {
      const at = raw.indexOf(written, field === 'body' ? bodyStart : 0);
      problems.push({
        file,
        ...(at === -1 ? (fieldPosition(raw, /^[^.,]+/.exec(field)?.[0]) ?? { line: 1, column: 1 }) : position(raw, at)),
        field,
        found: `"${written}", which is not a placeholder`,
        expected: 'one of {partner}, {provider}, {provider_full_name}, {email}',
        fix: `did you mean ${suggestion}?`,
      });
    });
  // Images in the body, as written → as published.
  const images = new Map<string, string>();
  const publishLinks = (text: string, field: string, firstLine: number) =>
    rewriteLinks(text, firstLine, ({ kind, href, line }) => {
      if (kind === 'link') {
        const at =
          field === 'body'
            ? { line, column: (raw.split('\n')[line - 1] ?? '').indexOf(`](${href}`) + 3 }
            : (locate(raw, href) ?? fieldPosition(raw, /^[^.,]+/.exec(field)?.[0]) ?? { line: 1, column: 1 });
        links.push({ file, line: at.line, column: Math.max(1, at.column), field, href, context: '' });
      }
      const target = kind === 'image' ? (images.get(href) ?? href) : href;
      return isRootRelative(target) ? absolute(target) : target;
    });

  const firstLine = rawBody.trim() ? bodyFirstLine(raw, entry.body ?? '') : 1;
  const expandedBody = expand(rawBody, 'body');
  for (const image of scanLinks(expandedBody, firstLine)) {
    if (image.kind === 'image' && !images.has(image.href) && !isOtherSite(image.href)) {
      images.set(image.href, await publishImage(image.href, entry.filePath ?? file, image.text));
    }
  }
  const before = links.length;
  const body = publishLinks(expandedBody, 'body', firstLine).trim();
  const expanded = mapStrings(entry.data, [], (text, field) => publishLinks(expand(text, field), field, 1));
  const data = (await publishFrontmatterImages(expanded, entry.filePath ?? file)) as EntryData;
  // `#heading` links resolve on the page that shows this entry's body.
  for (const link of links.slice(before)) link.context = body;
  return { data, body, file, raw, slug: entry.id.split('/').pop()!, ...(mdx ? { mdx } : {}) };
}

/** Every frontmatter image (`src` and `alt`) with `src` as published, so pages, twins and JSON-LD link the same file. */
async function publishFrontmatterImages(value: unknown, importer: string): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map((v) => publishFrontmatterImages(v, importer)));
  if (!value || typeof value !== 'object' || value instanceof Date) return value;
  const record = value as Record<string, unknown>;
  if (typeof record['src'] === 'string' && typeof record['alt'] === 'string')
    return { ...record, src: absolute(await publishImage(record['src'], importer, record['alt'])) };
  const entries = await Promise.all(
    Object.entries(record).map(async ([k, v]) => [k, await publishFrontmatterImages(v, importer)] as const),
  );
  return Object.fromEntries(entries);
}

/** A section the privacy notice adds its facts to, missing from its body. */
function privacyProblems(page: Of<'page'> | undefined): Problem[] {
  if (!page) return [];
  return PRIVACY_SECTIONS.filter((id) => !new RegExp(`^## .*\\{#${id}\\}\\s*$`, 'm').test(page.body)).map((id) => ({
    file: page.file,
    ...position(page.raw, page.raw.length),
    field: 'body',
    found: `no section {#${id}}`,
    expected: `a section for each fact the notice adds: ${PRIVACY_SECTIONS.map((x) => `{#${x}}`).join(', ')}`,
    fix: `add a heading ending in {#${id}}, e.g. "## How long we keep it {#retention}", and its text`,
  }));
}

/** A post's author who is nobody in content/people/, and one tag written two ways. */
function postProblems(posts: Of<'post'>[], people: Of<'person'>[]): Problem[] {
  const names = people.map((x) => x.data.name);
  const problems: Problem[] = [];
  const spelled = new Map<string, { tag: string; file: string }>();
  for (const post of posts) {
    const { author, tags } = post.data;
    if (!names.includes(author)) {
      const guess = nearest(author, names);
      problems.push({
        file: post.file,
        ...(fieldPosition(post.raw, 'author') ?? { line: 1, column: 1 }),
        field: 'author',
        found: `"${author}", who is not in content/people/`,
        expected: `the name of a person in content/people/: ${names.join(', ')}`,
        fix: guess
          ? `did you mean "${guess}"?`
          : 'add them as content/people/<name>.md (kind: person), or name another author',
      });
    }
    tags.forEach((tag, i) => {
      const first = spelled.get(tagSlug(tag));
      if (!first) return void spelled.set(tagSlug(tag), { tag, file: post.file });
      if (first.tag === tag) return;
      const at = post.raw.indexOf(tag, post.raw.indexOf('tags:'));
      problems.push({
        file: post.file,
        ...(at === -1 ? { line: 1, column: 1 } : position(post.raw, at)),
        field: `tags, item ${i + 1}`,
        found: `"${tag}", which ${first.file} writes "${first.tag}"`,
        expected: 'one spelling per tag: it is shown as written',
        fix: `write it "${first.tag}", or change it in ${first.file} too`,
      });
    });
  }
  return problems;
}

function ofKind<K extends EntryData['kind']>(entries: Sourced<EntryData>[], kind: K): Of<K>[] {
  return entries.filter((e): e is Of<K> => e.data.kind === kind);
}

/** The one entry of a kind, or a problem: none, or a second one. */
function single<T extends { file: string }>(items: T[], kind: string, problems: Problem[]): T | undefined {
  const [first, second] = items;
  if (!first)
    problems.push({
      file: `content/${kind === 'site' ? 'site' : kind}.md`,
      field: 'kind',
      found: `no published entry of kind "${kind}"`,
      expected: `exactly one file with kind: ${kind}`,
      fix: `add the file (docs/editing.md, "What each file is"), or fix the problem reported in it`,
    });
  else if (second)
    problems.push({
      file: second.file,
      line: 1,
      column: 1,
      field: 'kind',
      found: `a second entry of kind "${kind}" (the first is ${first.file})`,
      expected: `exactly one file with kind: ${kind}`,
      fix: 'keep one of the two files',
    });
  return first;
}

/** The pages of entries that failed their own checks: a link to one is not reported a second time. */
function failedPaths(failed: { shown: string; data: Record<string, unknown> }[]): string[] {
  return failed.flatMap(({ shown, data }) => {
    const slug = shown
      .split('/')
      .pop()!
      .replace(/\.mdx?$/, '')
      .toLowerCase();
    const tags = Array.isArray(data['tags']) ? data['tags'].filter((t) => typeof t === 'string') : [];
    if (data['kind'] === 'post') return [postPath(slug), ...tags.map(tagPath)];
    if (data['kind'] === 'case-study') return [caseStudyPath(slug)];
    if (data['kind'] === 'page' && typeof data['page'] === 'string' && data['page'] in PAGE_PATHS)
      return [PAGE_PATHS[data['page'] as PageId]];
    return [];
  });
}

const byOrder = <T extends { order: number }>(a: Sourced<T>, b: Sourced<T>) => a.data.order - b.data.order;
const newestFirst = <T extends { published: string }>(a: Sourced<T>, b: Sourced<T>) =>
  b.data.published.localeCompare(a.data.published) || a.slug.localeCompare(b.slug);

/**
 * The content as the typed model every output derives from, with every problem found while
 * loading it; the links are checked against the pages built from it (content.ts).
 */
export async function loadSiteModel() {
  // Every file's own problems first; the files that have one are not loaded, and the rest are checked on.
  const checked = checkContentFiles(CONTENT_DIR, PUBLIC_DIR);
  const problems: Problem[] = [...checked.problems];
  // Drafts are dropped here and only here, so no output can publish one.
  // Asked only when there are .mdx files: Astro warns of an empty collection. The dev preview
  // evaluates this module afresh after every change, so a first .mdx file is read at once.
  const mdx = hasMdxFiles(CONTENT_DIR) ? await getCollection('mdx') : [];
  const entries = [...(await getCollection('entries')), ...mdx].filter((e) => !e.data.draft);

  const sites = entries.flatMap((e) =>
    e.data.kind === 'site' ? [{ data: e.data, file: e.filePath ?? 'content/site.md' }] : [],
  );
  const siteFailed = checked.failed.some((f) => f.data['kind'] === 'site' || f.shown === 'content/site.md');
  const rawSite = sites.length > 0 || !siteFailed ? single(sites, 'site', problems)?.data : undefined;
  // Without the site's names no placeholder can be filled: report what was found so far.
  if (!rawSite) throw new ContentError(problems);
  const links: SourcedLink[] = [];
  const all = await Promise.all(entries.map((e) => prepare(e, rawSite, links, problems)));
  const site = ofKind(all, 'site')[0]!;
  const pageList = ofKind(all, 'page');
  const audiences = ofKind(all, 'audience');
  const capabilities = ofKind(all, 'capability').sort(byOrder);
  const engagementModels = ofKind(all, 'engagement-model').sort(byOrder);
  const people = ofKind(all, 'person').sort(byOrder);
  const posts = ofKind(all, 'post').sort(newestFirst);
  problems.push(
    ...postProblems(posts, people),
    ...privacyProblems(pageList.find((x) => x.data.page === 'privacy')),
    ...ruleProblems(all, site.data, placeholderValues(site.data)),
    ...duplicateProblems(pageList, (p) => p.data.page, 'page'),
    ...duplicateProblems(audiences, (a) => a.data.id, 'id', 'audience id'),
    ...duplicateProblems(capabilities, (c) => c.data.id, 'id', 'capability id'),
    ...duplicateProblems(engagementModels, (m) => m.data.id, 'id', 'engagement model id'),
  );

  const pages = Object.fromEntries(pageList.map((p) => [p.data.page, p])) as Record<ContentPageId, Of<'page'>>;
  const failedPages = new Set(checked.failed.map((f) => f.data['page']));
  for (const id of CONTENT_PAGE_IDS.filter((id) => !pages[id] && !failedPages.has(id))) {
    problems.push({
      file: `content/pages/${id}.md`,
      field: 'page',
      found: `no page entry for the page "${id}"`,
      expected: `a file with kind: page and page: ${id}`,
      fix: `add content/pages/${id}.md (kind: page, page: ${id}, title, description)`,
    });
  }

  const caseStudies = ofKind(all, 'case-study').sort(newestFirst);
  const evidence = single(ofKind(all, 'evidence'), 'evidence', problems);
  const programSupport = single(ofKind(all, 'program-support'), 'program-support', problems);
  const complete = CONTENT_PAGE_IDS.every((id) => pages[id]) && evidence && programSupport;
  if (!complete) throw new ContentError(problems);
  // Every case study's client, newest first, with a link to it; then `other_clients`.
  const clients = [
    ...caseStudies.map((c) => ({ name: c.data.client, logo: c.data.logo, href: absolute(caseStudyPath(c.slug)) })),
    ...evidence.data.other_clients.map((c) => ({ ...c, href: undefined })),
  ].filter((c, i, all) => all.findIndex((x) => x.name === c.name) === i);

  return {
    site,
    pages,
    audiences,
    capabilities,
    engagementModels,
    programSupport,
    evidence: {
      ...evidence,
      data: { ...evidence.data, clients, selected_client_experience: clients.map((c) => c.name) },
    },
    caseStudies,
    posts,
    people,
    links,
    /** Found while loading; the page documents add the links' and then throw them all (documents.ts). */
    problems,
    /** Pages of the entries that failed their own checks. */
    failedPaths: failedPaths(checked.failed),
  };
}

export type SiteModel = Awaited<ReturnType<typeof loadSiteModel>>;
