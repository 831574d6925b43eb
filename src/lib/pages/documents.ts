/**
 * Every published page as one markdown document built from the site model. The HTML page, its
 * markdown twin, /llms.txt and /llms-full.txt all render from these, so they cannot disagree.
 */
import type { Sourced, SiteModel } from '../content/content.ts';
import { ContentError } from '../content/error.ts';
import type { PageData } from '../content/entry-schema.ts';
import { oncePer } from '../memo.ts';
import { caseStudyPath, DOCUMENT_PATHS, indexPagePath, PAGE_PATHS, postPath, tagPath } from '../../contract/paths.ts';
import { AGENT_RESOURCE_PATHS } from '../../contract/capabilities-document.schema.ts';
import { PROBLEM_TYPES, problemMeaning, type ProblemType } from '../../contract/http.ts';
import { problemTypeUri } from '../../contract/problem-type.ts';
import { EMAIL_MEANINGS, STATUS_MEANINGS, workflowTexts } from '../../contract/contract.ts';
import { dataHandlingFromEnv } from '../../contract/data-handling.ts';
import { absolute } from './urls.ts';
import { INDEX_PAGE_SIZE } from './index-page-size.ts';
import { checkLinks } from '../content/link-check.ts';
import { proofFigures } from '../content/proof-figures.ts';
import { bodySections } from '../content/body-sections.ts';
import type { PageDocument } from './page-document.ts';

const list = (items: readonly string[]) => items.map((i) => `- ${i}`).join('\n');
const join = (...parts: (string | false | undefined)[]) =>
  parts.filter((p): p is string => !!p && p.trim() !== '').join('\n\n');
const link = (title: string, path: string) => `[${title}](${absolute(path)})`;

function pageDoc(
  page: Sourced<PageData>,
  path: string,
  section: PageDocument['section'],
  markdown: string,
): PageDocument {
  return { path, title: page.data.title, description: page.data.description, section, markdown };
}

const highlights = (model: SiteModel): string[] => proofFigures(model).map((f) => `${f.value} ${f.label}`);

function home(model: SiteModel): string {
  const { site, pages, capabilities, audiences } = model;
  return join(
    `**${site.data.positioning}**`,
    site.body,
    pages.home.body,
    `## Why ${site.data.name}`,
    list(site.data.reasons),
    '## What we deliver',
    list(capabilities.map((c) => `${link(c.data.name, `/services#${c.data.id}`)}: ${c.data.summary}`)),
    '## Who we work with',
    list(audiences.map((a) => `**${a.data.title}**: ${a.data.outcomes.join('; ')}`)),
    '## Evidence',
    `${list(highlights(model))}\n\nSource: ${link(`${site.data.name} partner profile`, model.evidence.data.source)}`,
    '## Start here',
    list([
      `${link('Request a proposal', PAGE_PATHS.proposal)} or write to [${site.data.email}](mailto:${site.data.email}).`,
      `Agents: ${link('agent directory', PAGE_PATHS.agents)}, ${link('llms.txt', DOCUMENT_PATHS.llmsTxt)}, ${link('capabilities JSON', DOCUMENT_PATHS.capabilities)}.`,
    ]),
  );
}

function agents(model: SiteModel): string {
  const { site, pages } = model;
  const workflow = workflowTexts(absolute);
  const resources = Object.entries(AGENT_RESOURCE_PATHS).map(([key, path]) => `\`${key}\`: ${absolute(path)}`);
  return join(
    pages.agents.body,
    '## Machine-readable resources {#resources}',
    list([
      `Capabilities document (JSON): ${absolute(DOCUMENT_PATHS.capabilities)}, described by the JSON Schema ${absolute(DOCUMENT_PATHS.capabilitiesSchema)}`,
      `Proposal contract (JSON): ${absolute(DOCUMENT_PATHS.proposalApi)}`,
      `OpenAPI 3.1: ${absolute(DOCUMENT_PATHS.openapi)}; API catalog (RFC 9727): ${absolute(DOCUMENT_PATHS.apiCatalog)}`,
      ...resources,
    ]),
    'Every page has a markdown twin: add `.md` to its path (the home page is `/index.md`).',
    '## Rules for agents {#rules}',
    list(site.data.agent_guidance),
    '## Proposal API {#proposal-api}',
    list(Object.entries(workflow).map(([key, text]) => `**${key}**: ${text}`)),
    submitOutcomesSection(),
    dataHandlingSection(model),
    '## Problem types {#problem-types}',
    'Errors are RFC 9457 problem details (`application/problem+json`). Field errors carry `errors[]` with a JSON pointer; values you sent are never echoed.',
    [
      '| Type | Status | Meaning |',
      '|---|---|---|',
      ...Object.entries(PROBLEM_TYPES).map(
        ([id, p]) =>
          `| [${id}](${problemTypeUri(absolute(PAGE_PATHS.agents), id)}) | ${p.status} | ${problemMeaning(id as ProblemType)} |`,
      ),
    ].join('\n'),
  );
}

function services(model: SiteModel): string {
  return join(
    model.pages.services.body,
    ...model.capabilities.map((c) =>
      join(`## ${c.data.name} {#${c.data.id}}`, `*${c.data.summary}*`, c.body, '**Includes:**', list(c.data.includes)),
    ),
    `Not sure which fits? ${link('Ask for guidance', PAGE_PATHS.proposal)}.`,
  );
}

function deliveryModels(model: SiteModel): string {
  const names = new Map(model.capabilities.map((c) => [c.data.id, c.data.name]));
  return join(
    model.pages['delivery-models'].body,
    ...model.engagementModels.map((m) =>
      join(
        `## ${m.data.name} {#${m.data.id}}`,
        m.data.description,
        `**Best when:** ${m.data.best_when}`,
        m.data.suggested_for.length > 0 &&
          `**Often used for:** ${m.data.suggested_for.map((id) => link(names.get(id) ?? id, `/services#${id}`)).join(', ')}`,
        m.body,
      ),
    ),
  );
}

function partners(model: SiteModel): string {
  const p = model.programSupport;
  return join(
    // The program summary restates the page intro; the capabilities document carries it.
    model.pages.partners.body,
    '## Startup support',
    list(p.data.startup_support),
    '## Partner program support',
    list(p.data.partner_program_support),
    '## Who decides {#disclaimer}',
    `> ${p.data.disclaimer}`,
    p.body,
  );
}

function about(model: SiteModel): string {
  const { site } = model;
  return join(
    site.data.summary,
    model.pages.about.body,
    `## Why ${site.data.name}`,
    list(site.data.reasons),
    ...model.audiences.map((a) =>
      join(
        `## ${a.data.title} {#${a.data.id}}`,
        a.body,
        '**Needs:**',
        list(a.data.needs),
        '**Outcomes:**',
        list(a.data.outcomes),
      ),
    ),
    '## Where we deliver',
    list(site.data.delivery_regions),
    '## Contact',
    `[${site.data.email}](mailto:${site.data.email}) or ${link('the proposal workspace', PAGE_PATHS.proposal)}.`,
  );
}

function credentials(model: SiteModel): string {
  const e = model.evidence;
  return join(
    model.pages['aws-credentials'].body,
    '## Partner highlights',
    list(highlights(model)),
    `Source: [${model.site.data.name} partner profile](${e.data.source}).`,
    e.body,
    '## Selected client experience',
    list(e.data.selected_client_experience),
  );
}

const caseStudyItem = (c: SiteModel['caseStudies'][number]) =>
  join(`## ${link(c.data.title, caseStudyPath(c.slug))}`, `*${c.data.industry}.* ${c.data.summary}`);

function caseStudy(model: SiteModel, c: SiteModel['caseStudies'][number]): string {
  const caps = new Map(model.capabilities.map((x) => [x.data.id, x.data.name]));
  const em = model.engagementModels.find((m) => m.data.id === c.data.engagement_model);
  // Challenge → approach → outcomes (the facts, once) → what came next.
  const { intro, sections } = bodySections(c.body);
  const approach = sections.findIndex((s) => /^approach/i.test(s.heading));
  const cut = approach === -1 ? sections.length : approach + 1;
  const section = (s: { heading: string; markdown: string }) => join(`## ${s.heading}`, s.markdown);
  return join(
    `*${c.data.summary}*`,
    list([
      `**Client:** ${c.data.client}`,
      `**Industry:** ${c.data.industry}`,
      `**Capabilities:** ${c.data.capabilities.map((id) => link(caps.get(id) ?? id, `/services#${id}`)).join(', ')}`,
      `**Engagement model:** ${link(em?.data.name ?? c.data.engagement_model, `/delivery-models#${c.data.engagement_model}`)}`,
      `**Published:** ${c.data.published}`,
    ]),
    intro,
    ...sections.slice(0, cut).map(section),
    '## Outcomes',
    list(c.data.outcomes),
    ...sections.slice(cut).map(section),
  );
}

const postItem = (p: SiteModel['posts'][number]) =>
  join(`## ${link(p.data.title, postPath(p.slug))}`, `*${p.data.published}, ${p.data.author}.* ${p.data.description}`);

/** What heads a paginated index: its title and description, the lead of page 1, a line after every page. */
interface IndexHead {
  title: string;
  description: string;
  lead?: string;
  footer?: string;
}

/**
 * A listing split into pages: `/blog`, then `/blog/archive/2`, ... (two segments, so no entry
 * slug can collide). Page 1 carries the intro; every page links its neighbours.
 */

function paginatedIndex<T>(
  head: IndexHead,
  basePath: string,
  section: PageDocument['section'],
  items: T[],
  render: (item: T) => string,
  older: string,
): PageDocument[] {
  const count = Math.max(1, Math.ceil(items.length / INDEX_PAGE_SIZE));
  const pathOf = (n: number) => indexPagePath(basePath, n);
  return Array.from({ length: count }, (_, i) => {
    const n = i + 1;
    const nav = [
      n > 1 && link(n === 2 ? 'Newer' : `Newer (page ${n - 1})`, pathOf(n - 1)),
      n < count && link(`${older} (page ${n + 1} of ${count})`, pathOf(n + 1)),
    ].filter((x): x is string => typeof x === 'string');
    return {
      path: pathOf(n),
      title: n === 1 ? head.title : `${head.title}, page ${n}`,
      description: n === 1 ? head.description : `${head.description} Page ${n} of ${count}.`,
      section,
      markdown: join(
        n === 1 && head.lead,
        ...items.slice(i * INDEX_PAGE_SIZE, n * INDEX_PAGE_SIZE).map(render),
        nav.join(' · '),
        head.footer,
      ),
    };
  });
}

const pageHead = (page: Sourced<PageData>): IndexHead => ({
  title: page.data.title,
  description: page.data.description,
  lead: page.body,
});

function post(p: SiteModel['posts'][number]): string {
  return join(
    `*${p.data.published}, by ${p.data.author}.*`,
    p.body,
    p.data.tags.length > 0 && `Tags: ${p.data.tags.map((t) => link(t, tagPath(t))).join(', ')}`,
  );
}

/** Every tag of the published posts, with its posts (newest first), in alphabetical order. */
export function postsByTag(model: SiteModel): [string, SiteModel['posts']][] {
  const tags = new Map<string, SiteModel['posts']>();
  for (const p of model.posts) {
    for (const t of p.data.tags) {
      const posts = tags.get(t);
      if (posts) posts.push(p);
      else tags.set(t, [p]);
    }
  }
  return [...tags.entries()].sort(([a], [b]) => a.localeCompare(b));
}

/** A tag's pages: its posts as a listing, paginated like the blog so no page grows with the blog. */
function tagDocs(model: SiteModel, tag: string, posts: SiteModel['posts']): PageDocument[] {
  const head: IndexHead = {
    title: `Posts tagged “${tag}”`,
    description: `${posts.length} ${posts.length === 1 ? 'post' : 'posts'} from the ${model.site.data.name} blog tagged “${tag}”.`,
    footer: link('All posts', PAGE_PATHS.blog),
  };
  return paginatedIndex(head, tagPath(tag), 'Blog', posts, postItem, 'Older posts');
}

/** The agent rule on what never to send through a public form; the workspace shows it too. */
export function neverSendRule(model: SiteModel): string {
  const rule = model.site.data.agent_guidance.find((g) => /^never send credentials/i.test(g));
  if (!rule) {
    throw new ContentError(
      `${model.site.file}: agent_guidance needs the rule that starts "Never send credentials"; /proposal and its workspace show it`,
    );
  }
  return rule;
}

/** What a submit reply's `status` and `confirmation_email` mean, from the contract's own lists. */
export function submitOutcomesSection(): string {
  const item =
    (name: string) =>
    ([value, meaning]: [string, string]) =>
      `\`${name}: "${value}"\`: ${meaning}`;
  return join(
    '## What a submit answer means {#submit-outcomes}',
    list(Object.entries(STATUS_MEANINGS).map(item('status'))),
    list(Object.entries(EMAIL_MEANINGS).map(item('confirmation_email'))),
  );
}

/** The data_handling facts of the build's environment, with the privacy notice's address. */
const dataHandlingOf = (model: SiteModel) =>
  dataHandlingFromEnv(model.site.data, process.env, absolute(PAGE_PATHS.privacy));

/** What is stored, for how long, how to have it deleted: on /agents, /proposal and their twins. */
export function dataHandlingSection(model: SiteModel): string {
  const d = dataHandlingOf(model);
  return join(
    '## Your data {#your-data}',
    list([d.stored, d.retention, d.erasure]),
    `The ${link('privacy notice', PAGE_PATHS.privacy)} says where it is kept and what is sent.`,
  );
}

/** The privacy notice: the page's own words, then every data_handling fact, as the contract states them. */
function privacy(model: SiteModel): string {
  const d = dataHandlingOf(model);
  const { site } = model;
  return join(
    model.pages.privacy.body,
    '## What is stored {#stored}',
    d.stored,
    `Submitting means agreeing to this text (version ${site.data.consent_version}):\n\n> ${site.data.consent_text}`,
    '## Where it is kept {#where}',
    d.where,
    '## How long {#retention}',
    d.retention,
    '## What is sent, and how often {#sending}',
    d.sending,
    list([
      `Confirmation emails to one address in 24 hours: at most ${d.limits.confirmation_emails_per_address_per_day}.`,
      `Confirmation emails from the whole site in a day: at most ${d.limits.confirmation_emails_per_day}.`,
      `Individual notices to ${site.data.name}'s sales team in an hour: at most ${d.limits.sales_notices_per_hour}; past that, one summary for the hour.`,
    ]),
    '## Deletion {#deletion}',
    d.erasure,
    `Agents and developers find the same facts as \`data_handling\` in the ${link('proposal contract', DOCUMENT_PATHS.proposalApi)}.`,
  );
}

/** The intro above the workspace form. */
export const proposalIntro = (model: SiteModel): string => model.pages.proposal.body;

/** The note for agents and developers below the workspace form. */
export function proposalApiNote(model: SiteModel): string {
  const { site } = model;
  const api = absolute(DOCUMENT_PATHS.proposalApi);
  return join(
    '## For agents and developers {#api}',
    `POST JSON to ${api}; the contract with schemas and examples is at ${api} (GET), the OpenAPI description at ${absolute(DOCUMENT_PATHS.openapi)}. Submissions need an \`Idempotency-Key\` header.`,
    `Prefer email? Write to [${site.data.email}](mailto:${site.data.email}).`,
  );
}

/** The whole proposal page for agents; the HTML page shows the intro and API note around its form. */
function proposal(model: SiteModel): string {
  const { site } = model;
  return join(
    proposalIntro(model),
    '## What to prepare {#prepare}',
    list(site.data.useful_intake_fields),
    '## Never send {#never-send}',
    `${neverSendRule(model)} Requests that contain them are refused.`,
    '## How it works {#how}',
    list([
      `**Guide**: describe your question, industry, company size and primary need; you get non-binding guidance.`,
      `**Summarize**: review an overview of your request and what is still missing. Nothing is sent.`,
      `**Submit**: with your consent, the request goes to our customer-relationship system. "Received" means it was accepted; we say an email was sent only when it was.`,
    ]),
    '## Consent {#consent}',
    `Submitting means agreeing to this text (version ${site.data.consent_version}):\n\n> ${site.data.consent_text}`,
    dataHandlingSection(model),
    proposalApiNote(model),
  );
}

/** All published pages (built once per model): fixed pages in site order, index archive pages, then every entry. */
export const pageDocuments = oncePer((model: SiteModel): PageDocument[] => {
  const docs = buildPageDocuments(model);
  // Every link editors wrote must land on a published page and heading.
  checkLinks(model.links, docs);
  return docs;
});

const documentsByPath = oncePer((model: SiteModel) => new Map(pageDocuments(model).map((d) => [d.path, d])));

/** The page published at `path`, if any: one lookup table per model, so a page costs no scan of all pages. */
export function documentAt(model: SiteModel, path: string): PageDocument | undefined {
  return documentsByPath(model).get(path);
}

function buildPageDocuments(model: SiteModel): PageDocument[] {
  const p = model.pages;
  const [caseStudyIndex, ...caseStudyArchive] = paginatedIndex(
    pageHead(p['case-studies']),
    PAGE_PATHS['case-studies'],
    'Case studies',
    model.caseStudies,
    caseStudyItem,
    'Older case studies',
  );
  const [blogIndex, ...blogArchive] = paginatedIndex(
    pageHead(p.blog),
    PAGE_PATHS.blog,
    'Blog',
    model.posts,
    postItem,
    'Older posts',
  );
  return [
    pageDoc(p.home, '/', 'Company', home(model)),
    pageDoc(p.services, PAGE_PATHS.services, 'Services', services(model)),
    pageDoc(p['delivery-models'], PAGE_PATHS['delivery-models'], 'Services', deliveryModels(model)),
    pageDoc(p.partners, PAGE_PATHS.partners, 'Services', partners(model)),
    pageDoc(p['aws-credentials'], PAGE_PATHS['aws-credentials'], 'Evidence', credentials(model)),
    caseStudyIndex!,
    blogIndex!,
    pageDoc(p.about, PAGE_PATHS.about, 'Company', about(model)),
    pageDoc(p.agents, PAGE_PATHS.agents, 'Proposals and agents', agents(model)),
    pageDoc(p.proposal, PAGE_PATHS.proposal, 'Proposals and agents', proposal(model)),
    pageDoc(p.privacy, PAGE_PATHS.privacy, 'Proposals and agents', privacy(model)),
    ...caseStudyArchive,
    ...blogArchive,
    ...model.caseStudies.map((c) => ({
      path: caseStudyPath(c.slug),
      title: c.data.title,
      description: c.data.summary,
      section: 'Case studies' as const,
      markdown: caseStudy(model, c),
      published: c.data.published,
    })),
    ...postsByTag(model).flatMap(([tag, posts]) => tagDocs(model, tag, posts)),
    ...model.posts.map((x) => ({
      path: postPath(x.slug),
      title: x.data.title,
      description: x.data.description,
      section: 'Blog' as const,
      markdown: post(x),
      published: x.data.published,
    })),
  ];
}

/** The markdown twin of a page: title, summary line, then the body. */
export function twinMarkdown(doc: PageDocument): string {
  return `# ${doc.title}\n\n> ${doc.description}\n\n${doc.markdown.replace(/ \{#[\w-]+\}$/gm, '')}\n`;
}
