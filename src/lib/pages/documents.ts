/**
 * Every published page as blocks built from the site model. The HTML page, its markdown twin,
 * /llms.txt and /llms-full.txt all render from these, so they cannot disagree.
 */
import { CONSENT_LINK_HOURS, CONSENT_METHODS } from '../../contract/consent.ts';
import { CONFIRMATION_EMAIL_MEANINGS, STATUS_MEANINGS } from '../../contract/submit-replies.ts';
import type { SiteModel } from '../content/model.ts';
import { oncePer } from '../memo.ts';
import {
  caseStudyPath,
  DOCUMENT_PATHS,
  INDEX_PAGE_SIZE,
  indexPagePath,
  PAGE_PATHS,
  postPath,
  tagPath,
  twinPath,
} from '../../contract/paths.ts';
import { PROBLEM_TYPES, problemAnchor, problemMeaning, type ProblemType } from '../../contract/http.ts';
import { contractOf, knowledgeOf } from '../agents/agent-documents.ts';
import { apiExamples } from '../agents/api-examples.ts';
import { askFormHtml, neverSendRule, workspaceFormsHtml } from '../../shared/workspace/form.ts';
import { IDEMPOTENCY_KEY_ARGUMENT, PROPOSAL_TOOLS, webmcpTools } from '../../contract/tools.ts';
import { mcpServerInfo } from '../../contract/mcp-server.ts';
import { MCP_TRANSPORT, mcpRevisionsText } from '../agents/mcp-server.ts';
import { absolute } from './urls.ts';
import { proofFigures } from '../content/proof-figures.ts';
import { bodySections, paragraphs } from '../content/body-sections.ts';
import type { PAGE_SECTIONS, PageSectionKey, PRIVACY_SECTIONS } from '../content/page-sections.ts';
import { processorsInUse } from '../content/processors.ts';
import { signedRequestsText } from '../../contract/web-bot-auth.ts';
import {
  blocksMarkdown,
  humanDate,
  scriptJson,
  type Block,
  type Card,
  type Link,
  type PageDocument,
  type PersonCard,
} from './page-document.ts';

type Post = SiteModel['posts'][number];
type CaseStudy = SiteModel['caseStudies'][number];

const list = (items: string[], cls?: string): Block => ({ type: 'list', items, class: cls });
const h = (text: string, id?: string, level: 2 | 3 = 2): Block => ({ type: 'heading', text, id, level });
const p = (text: string, cls?: string): Block => ({ type: 'p', text, class: cls });
const md = (markdown: string, cls?: string): Block => ({ type: 'md', markdown, class: cls });
const group = (blocks: Block[], more: { tag?: 'nav' | 'div'; class?: string; label?: string } = {}): Block => ({
  type: 'group',
  blocks,
  ...more,
});
/** The button to the workspace, named as the workspace is in the navigation. */
const proposalLink = (model: SiteModel) => ({
  label: model.pages.proposal.data.nav_label ?? model.pages.proposal.data.title,
  href: absolute(PAGE_PATHS.proposal),
  primary: true,
});
/** A closing call to action (content/pages/<id>.md, `cta`): the proposal button first, then `secondary`. */
const cta = (model: SiteModel, { heading, text }: { heading: string; text: string }, secondary?: Link): Block =>
  group(
    [
      h(heading, 'next-step'),
      p(text),
      { type: 'actions', links: [proposalLink(model), ...(secondary ? [secondary] : [])] },
    ],
    { class: 'closing' },
  );
/** The words a page's code places (content/pages/<id>.md, `sections`; src/lib/content/page-sections.ts lists them). */
const words =
  <P extends keyof typeof PAGE_SECTIONS>(model: SiteModel, page: P) =>
  (key: PageSectionKey<P>): string =>
    model.pages[page].data.sections[key] ?? key;
/** A page's link to a fixed page, named as that page is in the navigation. */
const pageLink = (model: SiteModel, id: keyof typeof PAGE_PATHS) =>
  link(model.pages[id].data.nav_label ?? model.pages[id].data.title, PAGE_PATHS[id]);
/** The button to /agents, named as its page is named in the navigation. */
const agentsLink = (model: SiteModel): Link => ({
  label: model.pages.agents.data.nav_label ?? model.pages.agents.data.title,
  href: absolute(PAGE_PATHS.agents),
});
/** Columns side by side on wide screens. */
const split = (blocks: Block[]) => group(blocks, { tag: 'div', class: 'split' });
const link = (title: string, path: string) => `[${title}](${absolute(path)})`;
const code = (text: string) => `\`${text}\``;
const join = (...parts: (string | false | undefined)[]) =>
  parts.filter((x): x is string => !!x && x.trim() !== '').join('\n\n');

type Head = Omit<PageDocument, 'blocks' | 'markdown'>;

function doc(head: Head, blocks: Block[]): PageDocument {
  return { ...head, blocks, markdown: blocksMarkdown(blocks) };
}

const entry = (
  path: string,
  title: string,
  description: string,
  section: Head['section'],
  published: string,
  blocks: Block[],
) => doc({ path, title, description, section, published, updated: published }, blocks);

/** The partner's tier and competencies as badges, and its figures, with their source: the proof a buyer checks. */
function proof(model: SiteModel, label: string): Block {
  const e = model.evidence.data;
  const w = words(model, 'aws-credentials');
  return group(
    [
      { type: 'badges', items: [{ name: e.tier.name, badge: e.tier.badge }, ...e.competencies] },
      list(
        proofFigures(model).map((f) => `**${f.value}** ${f.label}`),
        'figures',
      ),
      p(`${w('source')}: ${link(w('profile'), e.source)} · ${pageLink(model, 'aws-credentials')}`),
    ],
    { class: 'band', label },
  );
}

/** The newest case study's quote, linked to it. */
function featuredQuote(model: SiteModel): Block[] {
  const c = model.caseStudies.find((x) => x.data.quote);
  if (!c?.data.quote) return [];
  const { text, name, role } = c.data.quote;
  return [
    {
      type: 'quote',
      text,
      name,
      role,
      link: { label: words(model, 'home')('quote_link'), href: absolute(caseStudyPath(c.slug)) },
    },
  ];
}

const personCard = (x: SiteModel['people'][number]): PersonCard => ({
  id: personId(x),
  name: x.data.name,
  role: x.data.role,
  photo: x.data.photo,
  bio: x.body,
});

function home(model: SiteModel): Block[] {
  const { pages } = model;
  const w = words(model, 'home');
  const capabilityCard = (c: SiteModel['capabilities'][number]): Card => ({
    title: c.data.name,
    href: absolute(`/services#${c.data.id}`),
    text: c.data.summary,
    meta: '',
  });
  const audience = (a: SiteModel['audiences'][number]) => [
    h(link(a.data.title, `/about#${a.data.id}`), undefined, 3),
    p(paragraphs(a.body)[0] ?? ''),
  ];
  return [
    {
      type: 'hero',
      title: pages.home.data.title,
      lead: pages.home.data.description,
      links: [proposalLink(model), agentsLink(model)],
      image: pages.home.data.image,
    },
    proof(model, w('partner_record')),
    h(w('clients'), 'clients'),
    { type: 'logos', items: model.evidence.data.clients, label: w('clients') },
    ...featuredQuote(model),
    h(w('deliver')),
    { type: 'cards', level: 3, cards: model.capabilities.map(capabilityCard) },
    h(w('recent_work')),
    { type: 'cards', level: 3, cards: model.caseStudies.slice(0, 3).map(caseStudyCard) },
    p(link(w('all_case_studies'), PAGE_PATHS['case-studies'])),
    group([h(w('ask'), 'ask-h'), p(w('ask_text')), { type: 'form', html: askFormHtml(knowledgeOf(model)), twin: [] }], {
      class: 'ask-block',
    }),
    split([
      group([h(w('why'), 'why'), list(model.site.data.reasons)]),
      group([h(w('who'), 'who'), ...model.audiences.flatMap(audience)]),
    ]),
    h(w('people'), 'people'),
    { type: 'people', people: model.people.slice(0, 3).map(personCard) },
    p(link(w('all_people'), `${PAGE_PATHS.about}#people`)),
    md(pages.home.body, 'prose meta'),
    cta(model, pages.home.data.cta, agentsLink(model)),
  ];
}

function agents(model: SiteModel): Block[] {
  const k = knowledgeOf(model);
  const json = 'application/json';
  const get = (path: string, what: string, type = json) => ['GET', link(code(path), path), what, code(type)];
  const post = (path: string, what: string) => ['POST', code(path), what, code(json)];
  const config = { mcpServers: { [mcpServerInfo(k).name]: { type: 'http', url: k.urls.mcp } } };
  const problems = Object.entries(PROBLEM_TYPES);
  const D = DOCUMENT_PATHS;
  const outcome =
    (name: string) =>
    ([value, meaning]: [string, string]) =>
      `\`${name}: "${value}"\`: ${meaning}`;
  const exchange = (label: string, text: string) => group([p(label, 'meta'), { type: 'code', text }], { tag: 'div' });
  return [
    md(model.pages.agents.body, 'prose'),
    h('Endpoints', 'resources'),
    {
      type: 'table',
      head: ['Method', 'Path', 'What it returns', 'Type'],
      rows: [
        get(
          D.capabilities,
          `Services, engagement models, program support, evidence and rules (JSON Schema: ${D.capabilitiesSchema})`,
        ),
        get(D.proposalApi, 'The proposal contract: request schemas, examples, limits, idempotency, errors'),
        post(D.proposalApi, 'guide, summarize or submit, chosen by "action"'),
        post(D.mcp, 'MCP (Streamable HTTP, stateless): the same three steps as tools'),
        get(D.mcpServerCard, 'MCP server card: name, version, endpoint, protocol versions'),
        get(D.openapi, 'OpenAPI 3.1 description of the API'),
        get(D.apiCatalog, 'API catalog (RFC 9727)', 'application/linkset+json'),
        get(D.llmsTxt, 'Overview of the site for language models; /llms-full.txt has every page', 'text/plain'),
        get(twinPath(PAGE_PATHS.home), 'Markdown twin of the home page; add .md to any page path', 'text/markdown'),
        get(D.sitemap, 'Every page', 'application/xml'),
      ],
    },
    h('Rules for agents', 'rules'),
    list(model.site.data.agent_guidance, 'prose'),
    h('Signed requests (Web Bot Auth)', 'web-bot-auth'),
    md(join(...signedRequestsText()), 'prose'),
    h('MCP server', 'mcp'),
    md(
      join(
        `The same function answers MCP at ${code(k.urls.mcp)} (${MCP_TRANSPORT}). ${mcpRevisionsText()} Its tools carry the names of the workspace's WebMCP tools, take the contract's request schemas as input, and hold to every rule of the API: consent, the sensitive-data check, the limits and one stored request per key. Submit takes the Idempotency-Key as the argument ${code(IDEMPOTENCY_KEY_ARGUMENT)}; a replayed submit says so in the result's ${code('_meta')}. A refused request is a result with ${code('isError')} and the problem details below, in the tools' words. Only requests to this site's own hosts are answered, and browsers may call it only from this site.`,
        'Add it to a client that speaks MCP over HTTP:',
      ),
      'prose',
    ),
    { type: 'code', text: JSON.stringify(config, null, 2) },
    {
      type: 'table',
      head: ['Tool', 'What it does', 'Effect'],
      rows: Object.values(PROPOSAL_TOOLS).map((t) => [
        code(t.name),
        t.description,
        t.annotations.readOnlyHint ? 'Read-only' : 'Stores and sends; idempotent per key',
      ]),
      label: 'MCP tools',
    },
    h('Proposal API examples', 'proposal-api'),
    p(
      `POST one JSON object to ${code(D.proposalApi)}; ${code('action')} selects the step. These exchanges are generated from the ${link('contract', D.proposalApi)} at build time.`,
      'prose',
    ),
    ...apiExamples(contractOf(k), k).map((x) =>
      group([
        h(x.title, x.id, 3),
        p(x.note),
        split([exchange('Request', x.request), exchange('Response', x.response)]),
      ]),
    ),
    // What a submit reply's `status` and `confirmation_email` mean, from the contract's own lists.
    h('What a submit answer means', 'submit-outcomes'),
    list(Object.entries(STATUS_MEANINGS).map(outcome('status')), 'prose'),
    list(Object.entries(CONFIRMATION_EMAIL_MEANINGS).map(outcome('confirmation_email')), 'prose'),
    ...yourData(model),
    h('Problem types', 'problem-types'),
    p(
      `Each problem's ${code('type')} is this page's address with the anchor below, e.g. ${code('#problem-invalid-request')}.`,
      'prose',
    ),
    {
      type: 'table',
      head: ['Type', 'Status', 'Meaning'],
      rows: problems.map(([id, x]) => [
        link(code(id), `${PAGE_PATHS.agents}#${problemAnchor(id)}`),
        String(x.status),
        problemMeaning(id as ProblemType),
      ]),
      rowIds: problems.map(([id]) => problemAnchor(id)),
    },
    cta(model, model.pages.agents.data.cta),
  ];
}

function services(model: SiteModel): Block[] {
  const w = words(model, 'services');
  const service = (c: SiteModel['capabilities'][number]): Block => {
    const models = model.engagementModels.filter((m) => m.data.suggested_for.includes(c.data.id));
    const includes: Block[] = [
      h(w('includes'), undefined, 3),
      list(c.data.includes),
      ...(models.length > 0
        ? [h(w('models'), undefined, 3), list(models.map((m) => link(m.data.name, `/delivery-models#${m.data.id}`)))]
        : []),
      { type: 'actions', links: [{ label: `${w('ask_about')} ${c.data.name}`, href: absolute(PAGE_PATHS.proposal) }] },
    ];
    return group(
      [
        h(c.data.name, c.data.id),
        p(c.data.summary, 'summary'),
        split([md(c.body, 'prose'), group(includes, { tag: 'div' })]),
      ],
      { class: 'service' },
    );
  };
  const toc = model.capabilities.map((c) => link(c.data.name, `${PAGE_PATHS.services}#${c.data.id}`));
  return [
    md(model.pages.services.body, 'prose'),
    group([list(toc, 'toc')], { tag: 'nav', label: w('contents') }),
    ...model.capabilities.map(service),
    cta(model, model.pages.services.data.cta),
  ];
}

function deliveryModels(model: SiteModel): string {
  const names = new Map(model.capabilities.map((c) => [c.data.id, c.data.name]));
  const w = words(model, 'delivery-models');
  return join(
    model.pages['delivery-models'].body,
    ...model.engagementModels.map((m) =>
      join(
        `## ${m.data.name} {#${m.data.id}}`,
        m.data.description,
        `**${w('best_when')}:** ${m.data.best_when}`,
        m.data.suggested_for.length > 0 &&
          `**${w('used_for')}:** ${m.data.suggested_for.map((id) => link(names.get(id) ?? id, `/services#${id}`)).join(', ')}`,
        m.body,
      ),
    ),
  );
}

function partners(model: SiteModel): string {
  const x = model.programSupport;
  const w = words(model, 'partners');
  return join(
    // The program summary restates the page intro; the capabilities document carries it.
    model.pages.partners.body,
    `## ${w('startup')}`,
    x.data.startup_support.map((i) => `- ${i}`).join('\n'),
    `## ${w('partner_programs')}`,
    x.data.partner_program_support.map((i) => `- ${i}`).join('\n'),
    `## ${w('who_decides')} {#disclaimer}`,
    `> ${x.data.disclaimer}`,
    x.body,
  );
}

function about(model: SiteModel): Block[] {
  const { site } = model;
  const e = model.evidence.data;
  const w = words(model, 'about');
  return [
    p(site.data.summary, 'lead'),
    md(model.pages.about.body),
    {
      type: 'facts',
      facts: [
        [w('founded'), site.data.founded],
        [w('team'), `${site.data.headcount} ${w('people_count')}`],
        [w('offices'), site.data.offices.map((o) => o.city).join(', ')],
        [w('tier'), `${e.tier.name}, ${w('competencies_count')} ${e.competencies.length} ${w('competencies_word')}`],
        [w('phone'), `[${site.data.phone}](tel:${site.data.phone.replace(/[^+\d]/g, '')})`],
        [w('email'), `[${site.data.email}](mailto:${site.data.email})`],
      ],
    },
    h(w('people'), 'people'),
    { type: 'people', people: model.people.map(personCard) },
    ...model.audiences.flatMap((a) => [
      h(a.data.title, a.data.id),
      md(a.body),
      p(`**${w('needs')}:**`),
      list(a.data.needs),
      p(`**${w('outcomes')}:**`),
      list(a.data.outcomes),
    ]),
    h(w('offices'), 'offices'),
    list(site.data.offices.map((o) => `**${o.city}**: ${o.address}`)),
    h(w('where')),
    list(site.data.delivery_regions),
    cta(model, model.pages.about.data.cta),
  ];
}

function credentials(model: SiteModel): Block[] {
  const e = model.evidence;
  const w = words(model, 'aws-credentials');
  return [
    md(model.pages['aws-credentials'].body),
    h(w('tier'), 'tier'),
    { type: 'badges', items: [{ name: e.data.tier.name, badge: e.data.tier.badge }] },
    h(w('competencies'), 'competencies'),
    { type: 'badges', items: e.data.competencies },
    h(w('highlights')),
    list(proofFigures(model).map((f) => `${f.value} ${f.label}`)),
    p(`${w('source')}: ${link(w('profile'), e.data.source)}.`),
    md(e.body),
    h(w('clients')),
    { type: 'logos', items: e.data.clients, label: w('clients') },
    list(e.data.clients.map((c) => (c.href ? link(c.name, c.href) : c.name))),
    cta(model, model.pages['aws-credentials'].data.cta),
  ];
}

const caseStudyCard = (c: CaseStudy): Card => ({
  title: c.data.title,
  href: absolute(caseStudyPath(c.slug)),
  text: c.data.summary,
  meta: `${c.data.client} · ${c.data.industry}`,
  image: c.data.logo,
});

function caseStudy(model: SiteModel, c: CaseStudy): Block[] {
  const caps = new Map(model.capabilities.map((x) => [x.data.id, x.data.name]));
  // Challenge → approach → the diagram → the client's words → outcomes (the facts, once) → what came next.
  const { intro, sections } = bodySections(c.body);
  const approach = sections.findIndex((s) => /^approach/i.test(s.heading));
  const cut = approach === -1 ? sections.length : approach + 1;
  const bodySection = (s: { heading: string; markdown: string }) => group([h(s.heading), md(s.markdown)]);
  const em = model.engagementModels.find((m) => m.data.id === c.data.engagement_model)?.data.name;
  const { quote, diagram, figures } = c.data;
  const w = words(model, 'case-studies');
  return [
    ...(c.data.logo ? [{ type: 'image', image: c.data.logo, class: 'client-logo', eager: true } satisfies Block] : []),
    p(c.data.summary, 'lead'),
    list(
      figures.map((f) => `**${f.value}** ${f.label}`),
      'figures',
    ),
    {
      type: 'facts',
      facts: [
        [w('client'), `${c.data.client} (${c.data.industry})`],
        [w('capabilities'), c.data.capabilities.map((id) => link(caps.get(id) ?? id, `/services#${id}`)).join(', ')],
        [w('engagement_model'), link(em ?? c.data.engagement_model, `/delivery-models#${c.data.engagement_model}`)],
        [w('published'), humanDate(c.data.published)],
      ],
    },
    md(intro),
    ...sections.slice(0, cut).map(bodySection),
    ...(diagram ? [{ type: 'image', image: diagram } satisfies Block] : []),
    ...(quote ? [{ type: 'quote', ...quote } satisfies Block] : []),
    group([h(w('outcomes')), list(c.data.outcomes, 'outcomes')]),
    ...sections.slice(cut).map(bodySection),
    cta(model, c.data.cta ?? model.pages['case-studies'].data.entry_cta!, {
      href: absolute(PAGE_PATHS['case-studies']),
      label: w('more'),
    }),
  ];
}

const postCard = (x: Post): Card => ({
  title: x.data.title,
  href: absolute(postPath(x.slug)),
  text: x.data.description,
  date: x.data.published,
  meta: x.data.author,
  tags: x.data.tags.map((t) => ({ label: t, href: absolute(tagPath(t)) })),
});

/** A person's anchor on /about: their name slugged. */
const personId = (x: SiteModel['people'][number]) => x.slug;

/**
 * A listing split into pages: `/blog`, then `/blog/archive/2`, ... (two segments, so no entry
 * slug can collide). Page 1 carries the lead; every page links its neighbours.
 */
function paginatedIndex<T>(
  head: Head,
  items: T[],
  card: (item: T) => Card,
  { older, newer }: { older: string; newer: string },
  lead: Block[],
  after: Block[],
): PageDocument[] {
  const count = Math.max(1, Math.ceil(items.length / INDEX_PAGE_SIZE));
  const pathOf = (n: number) => absolute(indexPagePath(head.path, n));
  return Array.from({ length: count }, (_, i) => {
    const n = i + 1;
    const pager = [
      ...(n > 1 ? [{ label: n === 2 ? newer : `${newer} (page ${n - 1})`, href: pathOf(n - 1) }] : []),
      ...(n < count ? [{ label: `${older} (page ${n + 1} of ${count})`, href: pathOf(n + 1) }] : []),
    ];
    const blocks: Block[] = [
      ...(n === 1 ? lead : []),
      { type: 'cards', cards: items.slice(i * INDEX_PAGE_SIZE, n * INDEX_PAGE_SIZE).map(card) },
      { type: 'pager', links: pager },
      ...after,
    ];
    return doc(
      {
        ...head,
        path: indexPagePath(head.path, n),
        title: n === 1 ? head.title : `${head.title}, page ${n}`,
        description: n === 1 ? head.description : `${head.description} Page ${n} of ${count}.`,
        wide: true,
      },
      blocks,
    );
  });
}

function post(model: SiteModel, x: Post): Block[] {
  const author = model.people.find((y) => y.data.name === x.data.author)!;
  const w = words(model, 'blog');
  return [
    {
      type: 'byline',
      name: author.data.name,
      role: author.data.role,
      photo: author.data.photo,
      href: absolute(`${PAGE_PATHS.about}#${personId(author)}`),
      date: x.data.published,
    },
    { type: 'md', markdown: x.body, mdx: x.mdx },
    p(x.data.tags.length > 0 ? `${w('tags')}: ${x.data.tags.map((t) => link(t, tagPath(t))).join(', ')}` : ''),
    cta(model, x.data.cta ?? model.pages.blog.data.entry_cta!),
  ];
}

/** What is stored, for how long, how to have it deleted: on /agents and its twin (/proposal says it in people's words). */
function yourData(model: SiteModel): Block[] {
  const d = knowledgeOf(model).data_handling;
  return [
    h('Your data', 'your-data'),
    list([d.stored, d.retention, d.erasure], 'prose'),
    p(`The ${link('privacy notice', PAGE_PATHS.privacy)} says where it is kept and what is sent.`, 'prose'),
  ];
}

/** The consent text as a quote, with its version (on /privacy and /proposal). */
const consentQuote = (model: SiteModel) => {
  const w = words(model, 'privacy');
  const { data } = model.site;
  return `${w('consent_quote')} (${w('consent_version')} ${data.consent_version}):\n\n> ${data.consent_text}`;
};

/**
 * The privacy notice: the legal reviewer's sections in the page's own words (content/pages/privacy.md),
 * each followed by its facts from the content and the build's configuration: the controller, the
 * processors in use, the retention; then the mechanics, as data_handling states them.
 */
function privacy(model: SiteModel): string {
  const d = knowledgeOf(model).data_handling;
  const { site } = model;
  const w = words(model, 'privacy');
  const { intro, sections } = bodySections(model.pages.privacy.body);
  const office = site.data.offices[0]!;
  const facts: Record<(typeof PRIVACY_SECTIONS)[number], string> = {
    controller: [
      `- **${w('legal_name')}:** ${site.data.legal_name}`,
      `- **${w('address')}:** ${office.address}`,
      `- **${w('email')}:** [${site.data.email}](mailto:${site.data.email})`,
      `- **${w('phone')}:** ${site.data.phone}`,
    ].join('\n'),
    purposes: join(d.stored, consentQuote(model)),
    'legal-basis': '',
    rights: d.erasure,
    // A list, not a table: each processor reads whole on a phone.
    processors: processorsInUse(site.data.processors)
      .map((x) => `- **${x.name}** ${x.role}. ${w('location')}: ${x.location}. ${link(w('terms_link'), x.terms)}.`)
      .join('\n'),
    transfers: '',
    retention: d.retention,
    technical: join(
      `### ${w('consent_record')} {#consent}`,
      d.consent_record,
      w('consent_methods'),
      Object.values(CONSENT_METHODS)
        .map((meaning) => `- ${meaning}`)
        .join('\n'),
      `### ${w('where')} {#where}`,
      d.where,
      `### ${w('sending')} {#sending}`,
      d.sending,
      [
        `Confirmation emails to one mailbox (however its address is spelled) in 24 hours: at most ${d.limits.confirmation_emails_per_address_per_day}.`,
        `Confirmation emails from the requests of one client (one network address) in 24 hours: at most ${d.limits.confirmation_emails_per_client_per_day}.`,
        `Confirmation emails to one domain (its subdomains included; large mail providers' domains such as gmail.com excepted) in 24 hours: at most ${d.limits.confirmation_emails_per_domain_per_day}.`,
        `Confirmation emails from the whole site in a day: at most ${d.limits.confirmation_emails_per_day}.`,
        `Individual notices to ${site.data.name}'s sales team in an hour: at most ${d.limits.sales_notices_per_hour}; past that, one summary for the hour.`,
      ]
        .map((i) => `- ${i}`)
        .join('\n'),
      w('counting'),
      [d.counting.address, d.counting.client, d.counting.domain].map((i) => `- ${i}`).join('\n'),
      `Agents and developers find the same facts as \`data_handling\` in the ${link('proposal contract', DOCUMENT_PATHS.proposalApi)}.`,
    ),
  };
  return join(
    intro,
    ...sections.map((section) => {
      const id = /\{#([\w-]+)\}$/.exec(section.heading)?.[1];
      return join(`## ${section.heading}`, section.markdown, id && facts[id as keyof typeof facts]);
    }),
  );
}

/**
 * What the workspace keeps and for how long, in the words of the person filling it in; the privacy
 * notice (and the contract's data_handling) states the same facts in full.
 */
function yourDataForPeople(model: SiteModel): Block[] {
  const { name, email } = model.site.data;
  const days = knowledgeOf(model).data_handling.retention_days;
  const write = `write to [${email}](mailto:${email}) from the address you gave`;
  return [
    h('Your data', 'your-data'),
    list(
      [
        `Guidance (step 1) and the review (step 3) keep nothing about you. Of a question we cannot answer, only its topic words are counted, so that we learn what people ask.`,
        `When you send your request (step 4), ${name} keeps it with a record of your consent, tells its sales team and adds it to its customer records.`,
        days === null
          ? `It is kept until you ask for it to be deleted: ${write}.`
          : `It is deleted ${days} days after it arrived, or sooner if you ask: ${write}.`,
        `If somebody else sent a request with your address, the “Not me” link in its confirmation email deletes it, for ${CONSENT_LINK_HOURS.deny / 24} days.`,
      ],
      'prose',
    ),
    p(`The ${link('privacy notice', PAGE_PATHS.privacy)} says where it is kept and what is sent.`, 'prose'),
  ];
}

/** The workspace: the form for people, and for agents what it asks (the twin's sections). */
function proposal(model: SiteModel): Block[] {
  const { site } = model;
  const k = knowledgeOf(model);
  const api = DOCUMENT_PATHS.proposalApi;
  return [
    md(model.pages.proposal.body, 'prose lead-block'),
    {
      type: 'form',
      html: workspaceFormsHtml(k),
      // The WebMCP tools' definitions, for the script to register at once.
      tools: scriptJson(webmcpTools(k)),
      twin: [
        h('What to prepare', 'prepare'),
        list(site.data.useful_intake_fields),
        h('Never send', 'never-send'),
        p(`${neverSendRule(k)} Requests that contain them are refused.`),
        h('How it works', 'how'),
        list([
          `**Guide**: describe your question, industry, company size and primary need; you get non-binding guidance.`,
          `**Summarize**: review an overview of your request and what is still missing. Nothing is sent.`,
          `**Submit**: with your consent, the request goes to our customer-relationship system. "Received" means it was accepted; we say an email was sent only when it was.`,
        ]),
        h('Consent', 'consent'),
        md(consentQuote(model)),
      ],
    },
    ...yourDataForPeople(model),
    h('For agents and developers', 'api'),
    p(
      `An AI agent or a program can take the same steps: the ${link('developer page', PAGE_PATHS.agents)}, the ${link('proposal contract', api)} and the ${link('OpenAPI description', DOCUMENT_PATHS.openapi)} say how.`,
      'prose',
    ),
    // The workspace is the proposal: its page ends with the other way to reach a person.
    group(
      [
        h(model.pages.proposal.data.cta.heading, 'next-step'),
        p(model.pages.proposal.data.cta.text),
        { type: 'actions', links: [{ label: site.data.email, href: `mailto:${site.data.email}`, primary: true }] },
      ],
      { class: 'closing' },
    ),
  ];
}

/**
 * All published pages (built once per model): fixed pages in site order, index archive pages, then
 * every entry. The site model checks every link editors wrote against them (content.ts).
 */
export const pageDocuments = oncePer(buildPageDocuments);

/** Every page by its path: one lookup table per model, so a page costs no scan of all pages. */
export const documentsByPath = oncePer((model: SiteModel) => new Map(pageDocuments(model).map((d) => [d.path, d])));

function buildPageDocuments(model: SiteModel): PageDocument[] {
  const x = model.pages;
  const reviewed = model.site.data.last_updated;
  const newest = (dates: string[]) => dates.reduce((a, b) => (b > a ? b : a), reviewed);
  const head = (id: keyof typeof PAGE_PATHS, section: Head['section'], updated = reviewed): Head => ({
    path: PAGE_PATHS[id],
    title: x[id].data.title,
    description: x[id].data.description,
    section,
    updated,
  });
  const fixed = (id: keyof typeof PAGE_PATHS, section: Head['section'], blocks: Block[], more = {}) =>
    doc({ ...head(id, section), ...more }, blocks);
  const blogUpdated = newest(model.posts.map((y) => y.data.published));
  const tags = [...new Set(model.posts.flatMap((y) => y.data.tags))].sort((a, b) => a.localeCompare(b));
  const wide = { wide: true };
  const cs = words(model, 'case-studies');
  const blog = words(model, 'blog');
  const [caseStudyIndex, ...caseStudyArchive] = paginatedIndex(
    head('case-studies', 'Case studies', newest(model.caseStudies.map((c) => c.data.published))),
    model.caseStudies,
    caseStudyCard,
    { older: cs('older'), newer: cs('newer') },
    [md(x['case-studies'].body, 'prose lead')],
    [cta(model, x['case-studies'].data.cta)],
  );
  const [blogIndex, ...blogArchive] = paginatedIndex(
    head('blog', 'Blog', blogUpdated),
    model.posts,
    postCard,
    { older: blog('older'), newer: blog('newer') },
    [md(x.blog.body, 'prose lead')],
    [cta(model, x.blog.data.cta)],
  );
  return [
    fixed('home', 'Company', home(model), wide),
    fixed('services', 'Services', services(model), wide),
    fixed('delivery-models', 'Services', [md(deliveryModels(model)), cta(model, x['delivery-models'].data.cta)]),
    fixed('partners', 'Services', [md(partners(model)), cta(model, x.partners.data.cta)]),
    fixed('aws-credentials', 'Evidence', credentials(model)),
    caseStudyIndex!,
    blogIndex!,
    fixed('about', 'Company', about(model)),
    fixed('agents', 'Proposals and agents', agents(model), wide),
    fixed('proposal', 'Proposals and agents', proposal(model), wide),
    fixed('privacy', 'Proposals and agents', [md(privacy(model)), cta(model, x.privacy.data.cta)]),
    ...caseStudyArchive,
    ...blogArchive,
    ...model.caseStudies.map((c) =>
      entry(caseStudyPath(c.slug), c.data.title, c.data.summary, 'Case studies', c.data.published, caseStudy(model, c)),
    ),
    // Every tag in alphabetical order, with its posts (newest first).
    ...tags.flatMap((tag) => {
      const posts = model.posts.filter((y) => y.data.tags.includes(tag));
      return paginatedIndex(
        {
          path: tagPath(tag),
          title: `${blog('tagged')} “${tag}”`,
          description: `${posts.length} ${posts.length === 1 ? 'post' : 'posts'} from the ${model.site.data.name} blog tagged “${tag}”.`,
          section: 'Blog',
          updated: blogUpdated,
        },
        posts,
        postCard,
        { older: blog('older'), newer: blog('newer') },
        [],
        [p(link(blog('all_posts'), PAGE_PATHS.blog)), cta(model, x.blog.data.cta)],
      );
    }),
    ...model.posts.map((x) =>
      entry(postPath(x.slug), x.data.title, x.data.description, 'Blog', x.data.published, post(model, x)),
    ),
  ];
}

/** The 404 page (no page of the site: no twin, no JSON-LD), from content/pages/not-found.md. */
export function notFoundBlocks(model: SiteModel): Block[] {
  const page = model.pages['not-found'];
  const links = (['services', 'case-studies', 'blog', 'agents'] as const).map((id) =>
    link(model.pages[id].data.title, PAGE_PATHS[id]),
  );
  return [
    md(page.body, 'lead'),
    list([link(words(model, 'not-found')('home'), PAGE_PATHS.home), ...links]),
    cta(model, page.data.cta),
  ];
}

/** The markdown twin of a page: title, summary line, then the body. */
export function twinMarkdown(doc: PageDocument): string {
  return `# ${doc.title}\n\n> ${doc.description}\n\n${doc.markdown.replace(/ \{#[\w-]+\}$/gm, '')}\n`;
}

/** The line under a twin's title that tells an agent landing on it where the index of the site is (agent-docs' llms-txt-directive-md). */
export const twinPointer = () => `> For the index of every page, see [llms.txt](${absolute(DOCUMENT_PATHS.llmsTxt)}).`;

/**
 * A page's markdown twin as served: a short YAML frontmatter (JSON strings are valid YAML scalars),
 * then the page, with the pointer to llms.txt under its title (the llms files hold the page without it).
 */
export function twinFile(doc: PageDocument): string {
  const frontmatter = [
    `title: ${JSON.stringify(doc.title)}`,
    `description: ${JSON.stringify(doc.description)}`,
    `canonical_url: ${absolute(doc.path)}`,
    `last_updated: "${doc.updated}"`,
  ].join('\n');
  const title = `# ${doc.title}\n\n`;
  const page = twinMarkdown(doc);
  return `---\n${frontmatter}\n---\n\n${title}${twinPointer()}\n\n${page.slice(title.length)}`;
}
