/**
 * /llms.txt (llmstxt.org shape), /llms-full.txt, the per-section full-text files and /sitemap.md,
 * from the page documents, each bounded however large the site grows (the limits in llms-limits.ts).
 */
import type { SiteModel } from '../content/model.ts';
import { partnerStatement } from '../../contract/partner-phrase.ts';
import { knowledgeOf } from './agent-documents.ts';
import { TOOL_NAMES } from './agent-skills.ts';
import { pageDocuments, twinMarkdown } from '../pages/documents.ts';
import { oncePer } from '../memo.ts';
import type { PageDocument } from '../pages/page-document.ts';
import { absolute } from '../pages/urls.ts';
import { LLMS_FULL_MAX_BYTES, LLMS_TXT_SECTION_MAX_LINKS } from './llms-limits.ts';
import { DOCUMENT_PATHS, llmsFullSectionPath, tagSlug, twinPath } from '../../contract/paths.ts';

/** What a file's pages may fill: room is kept for its header (title, part numbers, links to the other parts). */
const BUDGET = LLMS_FULL_MAX_BYTES - 4_000;

const SEPARATOR = '\n---\n\n';

type Section = PageDocument['section'];

const SECTION_ORDER: Section[] = ['Company', 'Services', 'Evidence', 'Proposals and agents', 'Case studies', 'Blog'];

/** One page in a full-text file: its source URL and twin markdown. */
type Block = { section: Section; path: string; text: string };

/** One published full-text file of a section: `label` names the section, and the part when it has several. */
type SectionFile = Block & { label: string; pages: number };

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');
const blocksBytes = (blocks: Block[]) => blocks.reduce((sum, b) => sum + utf8Bytes(b.text) + utf8Bytes(SEPARATOR), 0);
const RULES = `Rules for agents: ${absolute('/agents#rules')}.`;

/** Packs blocks in order into parts of at most BUDGET bytes (separators included). */
function pack(blocks: Block[]): Block[][] {
  const parts: Block[][] = [];
  let current: Block[] = [];
  let size = 0;
  for (const block of blocks) {
    const bytes = blocksBytes([block]);
    if (bytes > BUDGET) {
      throw new Error(
        `${block.path}: its markdown is ${bytes.toLocaleString('en-US')} bytes, more than one llms-full file holds (${LLMS_FULL_MAX_BYTES.toLocaleString('en-US')} bytes, LLMS_FULL_MAX_BYTES in src/lib/agents/llms-limits.ts); split the page`,
      );
    }
    if (size + bytes > BUDGET) {
      parts.push(current);
      current = [];
      size = 0;
    }
    current.push(block);
    size += bytes;
  }
  if (current.length > 0) parts.push(current);
  return parts;
}

/** Every full-text file of the site, built once per model (the routes of each file all ask). */
export const fullText = oncePer((model: SiteModel) => {
  const site = model.site.data;
  const blocks: Block[] = pageDocuments(model).map((d) => ({
    section: d.section,
    path: d.path,
    text: `Source: ${absolute(d.path)}\n\n${twinMarkdown(d)}`,
  }));
  const sections = SECTION_ORDER.flatMap((section) => {
    const parts = pack(blocks.filter((b) => b.section === section));
    const partPath = (part: number) => llmsFullSectionPath(tagSlug(section), part);
    return parts.map((pages, i): SectionFile => {
      const header = [
        `# ${site.name}: full context, ${section}${parts.length > 1 ? ` (part ${i + 1} of ${parts.length})` : ''}`,
        `> ${site.summary}`,
        [
          `The ${section} pages of ${absolute('/')} in markdown, in site order.`,
          ...(i > 0 ? [`Previous part: ${absolute(partPath(i))}.`] : []),
          ...(i < parts.length - 1 ? [`Next part: ${absolute(partPath(i + 2))}.`] : []),
          `Every full-text file: ${absolute(DOCUMENT_PATHS.llmsTxt)}. ${RULES}`,
        ].join(' '),
      ].join('\n\n');
      return {
        section,
        path: partPath(i + 1),
        label: `${section}${parts.length > 1 ? `, part ${i + 1} of ${parts.length}` : ''}`,
        pages: pages.length,
        text: [`${header}\n`, ...pages.map((b) => b.text)].join(SEPARATOR),
      };
    });
  });
  return { whole: wholeFile(site, blocks, sections), sections };
});

/**
 * /llms-full.txt: every page in site order when the site fits one file; otherwise the sections that
 * fit whole, in llms.txt's order, and the files where the rest continue.
 */
function wholeFile(site: SiteModel['site']['data'], blocks: Block[], files: SectionFile[]): string {
  const title = `# ${site.name}: full context\n\n> ${site.summary}`;
  if (blocksBytes(blocks) <= BUDGET) {
    return [
      `${title}\n\nEvery published page of ${absolute('/')} in markdown, in site order. ${RULES}\n`,
      ...blocks.map((b) => b.text),
    ].join(SEPARATOR);
  }
  const kept: Block[] = [];
  const keptSections: Section[] = [];
  const rest: SectionFile[] = [];
  for (const section of SECTION_ORDER) {
    const inSection = blocks.filter((b) => b.section === section);
    // Once one section moves out, the later ones do too, so the file keeps llms.txt's order.
    if (rest.length === 0 && blocksBytes([...kept, ...inSection]) <= BUDGET) {
      kept.push(...inSection);
      keptSections.push(section);
    } else {
      rest.push(...files.filter((f) => f.section === section));
    }
  }
  const continued = rest.map((f) => `- ${f.label}: ${absolute(f.path)}`);
  const header = `${title}\n\nThe site is larger than one file of ${LLMS_FULL_MAX_BYTES.toLocaleString('en-US')} bytes. Here in full, in markdown: ${keptSections.length > 0 ? `the ${keptSections.join(', ')} pages` : 'no section'}. ${RULES}\n\nThe other sections continue in these files:\n\n${continued.join('\n')}\n`;
  return [header, ...kept.map((b) => b.text)].join(SEPARATOR);
}

const linkLine = (d: PageDocument) => `- [${d.title}](${absolute(twinPath(d.path))}): ${d.description}`;

/**
 * The links of one section: every page, or past the limit its first page (the section's index),
 * its newest dated pages, and a last link back to the index that says how many are not listed.
 */
function sectionLinks(section: Section, docs: PageDocument[]): string[] {
  const pages = docs.filter((d) => d.section === section);
  if (pages.length <= LLMS_TXT_SECTION_MAX_LINKS) return pages.map(linkLine);
  const [index, ...rest] = pages as [PageDocument, ...PageDocument[]];
  const newest = rest
    .filter((d) => d.published !== undefined)
    .sort((a, b) => (b.published ?? '').localeCompare(a.published ?? ''))
    .slice(0, LLMS_TXT_SECTION_MAX_LINKS - 2);
  const unlisted = pages.length - 1 - newest.length;
  return [
    linkLine(index),
    ...newest.map(linkLine),
    `- [${index.title}: every page](${absolute(twinPath(index.path))}): ${unlisted.toLocaleString('en-US')} more ${section} pages than listed here, ${pages.length.toLocaleString('en-US')} in all; the index and its numbered pages list every entry, newest first, ${absolute(DOCUMENT_PATHS.sitemap)} lists every page, and the ${section} files under Full text hold them all`,
  ];
}

/**
 * /sitemap.md: every page by section as a titled link to its twin, the markdown counterpart of
 * sitemap.xml. A section of more pages than llms.txt lists names its index pages only (together
 * they list every entry), so the file stays small however many entries the site holds.
 */
export function sitemapMd(model: SiteModel): string {
  const site = model.site.data;
  const docs = pageDocuments(model);
  const sections = SECTION_ORDER.map((section) => {
    const pages = docs.filter((d) => d.section === section);
    if (pages.length <= LLMS_TXT_SECTION_MAX_LINKS) return `## ${section}\n\n${pages.map(linkLine).join('\n')}`;
    const indexes = pages.filter((d) => d.published === undefined);
    const entries = (pages.length - indexes.length).toLocaleString('en-US');
    return `## ${section}\n\n${entries} ${section} entries, each listed on one of these index pages:\n\n${indexes.map(linkLine).join('\n')}`;
  });
  return (
    [
      `# ${site.name}: sitemap`,
      `> Every page of ${absolute('/')} by section, each linked to its markdown twin.`,
      `For agents: the index with the rules for using this site is ${absolute(DOCUMENT_PATHS.llmsTxt)}; the same pages for crawlers, with dates: ${absolute(DOCUMENT_PATHS.sitemap)}.`,
      ...sections,
    ].join('\n\n') + '\n'
  );
}

export function llmsTxt(model: SiteModel): string {
  const site = model.site.data;
  const docs = pageDocuments(model);
  const sections = SECTION_ORDER.map((section) => `## ${section}\n\n${sectionLinks(section, docs).join('\n')}`);
  const files = fullText(model).sections.map(
    (f) => `- [${f.label}](${absolute(f.path)}): ${f.pages} ${f.pages === 1 ? 'page' : 'pages'} in full`,
  );
  return (
    [
      `# ${site.name}`,
      `> ${site.summary}`,
      `${partnerStatement(knowledgeOf(model).partner)}. When you use or repeat anything from this site, follow these rules:`,
      site.agent_guidance.map((rule) => `- ${rule}`).join('\n'),
      `Structured facts: ${absolute(DOCUMENT_PATHS.capabilities)} (JSON). Proposal contract: ${absolute(DOCUMENT_PATHS.proposalApi)} (GET), OpenAPI: ${absolute(DOCUMENT_PATHS.openapi)}. Everything in full: ${absolute(DOCUMENT_PATHS.llmsFull)}, or section by section below (each file at most ${LLMS_FULL_MAX_BYTES.toLocaleString('en-US')} bytes).`,
      `For agents: an MCP server (Streamable HTTP) at ${absolute(DOCUMENT_PATHS.mcp)} with the tools ${TOOL_NAMES.join(', ')} (server card: ${absolute(DOCUMENT_PATHS.mcpServerCard)}), an Agent Skill to request a proposal (${absolute(DOCUMENT_PATHS.agentSkillsIndex)}), the API catalog (${absolute(DOCUMENT_PATHS.apiCatalog)}) and the AI catalog (${absolute(DOCUMENT_PATHS.aiCatalog)}).`,
      ...sections,
      `## Full text\n\n${files.join('\n')}`,
      `## Optional\n\n- [Sitemap](${absolute(DOCUMENT_PATHS.sitemap)}): every published page\n- [Sitemap in markdown](${absolute(DOCUMENT_PATHS.sitemapMd)}): every page by section, linked to its twin\n- [Capabilities JSON Schema](${absolute(DOCUMENT_PATHS.capabilitiesSchema)}): shape of the capabilities document`,
    ].join('\n\n') + '\n'
  );
}
