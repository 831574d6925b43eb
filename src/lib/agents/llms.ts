/**
 * /llms.txt (llmstxt.org shape), /llms-full.txt and the per-section full-text files, from the page
 * documents. No full-text file grows past LLMS_FULL_MAX_BYTES, however large the site: a section
 * that outgrows it continues in numbered parts, and /llms-full.txt then keeps the sections that
 * fit and names the files of the rest. Nor does /llms.txt grow with the site: a section of more
 * than LLMS_TXT_SECTION_MAX_LINKS pages lists its index, its newest pages and where the rest are.
 */
import type { SiteModel } from '../content/content.ts';
import { partnerStatement } from '../../contract/partner-phrase.ts';
import { partnerNames } from './knowledge.ts';
import { pageDocuments, twinMarkdown } from '../pages/documents.ts';
import { oncePer } from '../memo.ts';
import type { PageDocument } from '../pages/page-document.ts';
import { absolute } from '../pages/urls.ts';
import { LLMS_FULL_MAX_BYTES, LLMS_TXT_SECTION_MAX_LINKS } from './llms-limits.ts';
import { DOCUMENT_PATHS, llmsFullSectionPath, tagSlug, twinPath } from '../../contract/paths.ts';
import { PROPOSAL_TOOLS } from '../../proposal/tools.ts';

/** Room kept in each file for its header (title, part numbers, links to the other parts). */
const HEADER_ROOM = 4_000;

const SEPARATOR = '\n---\n\n';

type Section = PageDocument['section'];

const SECTION_ORDER: Section[] = ['Company', 'Services', 'Evidence', 'Proposals and agents', 'Case studies', 'Blog'];

/** One published full-text file of a section. */
export interface SectionFile {
  section: Section;
  /** Site path, e.g. `/llms-full/blog-2.txt`. */
  path: string;
  part: number;
  parts: number;
  pages: number;
  text: string;
}

interface FullText {
  /** /llms-full.txt */
  whole: string;
  sections: SectionFile[];
}

const utf8Bytes = (text: string) => Buffer.byteLength(text, 'utf8');

const pageBlock = (d: PageDocument) => `Source: ${absolute(d.path)}\n\n${twinMarkdown(d)}`;

/** Packs blocks in order into parts of at most `budget` bytes (separators included). */
function pack(blocks: { path: string; text: string }[], budget: number): { path: string; text: string }[][] {
  const parts: { path: string; text: string }[][] = [];
  let current: { path: string; text: string }[] = [];
  let size = 0;
  for (const block of blocks) {
    const bytes = utf8Bytes(block.text) + utf8Bytes(SEPARATOR);
    if (bytes > budget) {
      throw new Error(
        `${block.path}: its markdown is ${bytes.toLocaleString('en-US')} bytes, more than one llms-full file holds (${LLMS_FULL_MAX_BYTES.toLocaleString('en-US')} bytes, LLMS_FULL_MAX_BYTES in src/lib/agents/llms-limits.ts); split the page`,
      );
    }
    if (size + bytes > budget && current.length > 0) {
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
export const fullText = oncePer((model: SiteModel): FullText => buildFullText(model, pageDocuments(model)));

function buildFullText(model: SiteModel, docs: PageDocument[]): FullText {
  const site = model.site.data;
  const budget = LLMS_FULL_MAX_BYTES - HEADER_ROOM;
  const blocks = new Map(docs.map((d) => [d, { path: d.path, text: pageBlock(d) }]));
  const sections: SectionFile[] = [];
  const sectionParts = new Map<Section, SectionFile[]>();
  for (const section of SECTION_ORDER) {
    const parts = pack(
      docs.filter((d) => d.section === section).map((d) => blocks.get(d) as { path: string; text: string }),
      budget,
    );
    const files = parts.map((pages, i) => {
      const path = llmsFullSectionPath(tagSlug(section), i + 1);
      const neighbours = [
        i > 0 && `Previous part: ${absolute(llmsFullSectionPath(tagSlug(section), i))}.`,
        i < parts.length - 1 && `Next part: ${absolute(llmsFullSectionPath(tagSlug(section), i + 2))}.`,
      ].filter(Boolean);
      const header = [
        `# ${site.name}: full context, ${section}${parts.length > 1 ? ` (part ${i + 1} of ${parts.length})` : ''}`,
        `> ${site.summary}`,
        [
          `The ${section} pages of ${absolute('/')} in markdown, in site order.`,
          ...neighbours,
          `Every full-text file: ${absolute(DOCUMENT_PATHS.llmsTxt)}. Rules for agents: ${absolute('/agents#rules')}.`,
        ].join(' '),
      ].join('\n\n');
      return {
        section,
        path,
        part: i + 1,
        parts: parts.length,
        pages: pages.length,
        text: `${[`${header}\n`, ...pages.map((b) => b.text)].join(SEPARATOR)}`,
      };
    });
    sectionParts.set(section, files);
    sections.push(...files);
  }
  return { whole: wholeFile(model, docs, blocks, sectionParts, budget), sections };
}

/**
 * /llms-full.txt: every page in site order when the site fits one file; otherwise the sections that
 * fit whole, in llms.txt's order, and the files where the rest continue.
 */
function wholeFile(
  model: SiteModel,
  docs: PageDocument[],
  blocks: Map<PageDocument, { path: string; text: string }>,
  sectionParts: Map<Section, SectionFile[]>,
  budget: number,
): string {
  const site = model.site.data;
  const title = `# ${site.name}: full context\n\n> ${site.summary}`;
  const rules = `Rules for agents: ${absolute('/agents#rules')}.`;
  const all = docs.map((d) => (blocks.get(d) as { text: string }).text);
  if (utf8Bytes(all.join(SEPARATOR)) + utf8Bytes(SEPARATOR) <= budget) {
    return [`${title}\n\nEvery published page of ${absolute('/')} in markdown, in site order. ${rules}\n`, ...all].join(
      SEPARATOR,
    );
  }
  const kept: string[] = [];
  const keptSections: Section[] = [];
  const rest: SectionFile[] = [];
  let size = 0;
  for (const section of SECTION_ORDER) {
    const texts = docs.filter((d) => d.section === section).map((d) => (blocks.get(d) as { text: string }).text);
    const bytes = texts.reduce((sum, t) => sum + utf8Bytes(t) + utf8Bytes(SEPARATOR), 0);
    // Once one section moves out, the later ones do too, so the file keeps llms.txt's order.
    if (rest.length === 0 && size + bytes <= budget) {
      kept.push(...texts);
      keptSections.push(section);
      size += bytes;
    } else {
      rest.push(...(sectionParts.get(section) ?? []));
    }
  }
  const continued = rest.map(
    (f) => `- ${f.section}${f.parts > 1 ? `, part ${f.part} of ${f.parts}` : ''}: ${absolute(f.path)}`,
  );
  const header = `${title}\n\nThe site is larger than one file of ${LLMS_FULL_MAX_BYTES.toLocaleString('en-US')} bytes. Here in full, in markdown: ${keptSections.length > 0 ? `the ${keptSections.join(', ')} pages` : 'no section'}. ${rules}\n\nThe other sections continue in these files:\n\n${continued.join('\n')}\n`;
  return [header, ...kept].join(SEPARATOR);
}

const linkLine = (d: PageDocument) => `- [${d.title}](${absolute(twinPath(d.path))}): ${d.description}`;

/**
 * The links of one section: every page, or past the limit its first page (the section's index),
 * its newest dated pages, and a last link back to the index that says how many are not listed.
 */
function sectionLinks(section: Section, pages: PageDocument[]): string[] {
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

export function llmsTxt(model: SiteModel, docs: PageDocument[]): string {
  const site = model.site.data;
  const sections = SECTION_ORDER.map((section) => {
    const items = sectionLinks(
      section,
      docs.filter((d) => d.section === section),
    );
    return `## ${section}\n\n${items.join('\n')}`;
  });
  const files = fullText(model).sections.map(
    (f) =>
      `- [${f.section}${f.parts > 1 ? `, part ${f.part} of ${f.parts}` : ''}](${absolute(f.path)}): ${f.pages} ${f.pages === 1 ? 'page' : 'pages'} in full`,
  );
  return (
    [
      `# ${site.name}`,
      `> ${site.summary}`,
      `${partnerStatement(partnerNames(site))}. When you use or repeat anything from this site, follow these rules:`,
      site.agent_guidance.map((rule) => `- ${rule}`).join('\n'),
      `Structured facts: ${absolute(DOCUMENT_PATHS.capabilities)} (JSON). Proposal contract: ${absolute(DOCUMENT_PATHS.proposalApi)} (GET), OpenAPI: ${absolute(DOCUMENT_PATHS.openapi)}. Everything in full: ${absolute(DOCUMENT_PATHS.llmsFull)}, or section by section below (each file at most ${LLMS_FULL_MAX_BYTES.toLocaleString('en-US')} bytes).`,
      `For agents: an MCP server (Streamable HTTP) at ${absolute(DOCUMENT_PATHS.mcp)} with the tools ${Object.values(
        PROPOSAL_TOOLS,
      )
        .map((t) => t.name)
        .join(
          ', ',
        )} (server card: ${absolute(DOCUMENT_PATHS.mcpServerCard)}), an Agent Skill to request a proposal (${absolute(DOCUMENT_PATHS.agentSkillsIndex)}), the API catalog (${absolute(DOCUMENT_PATHS.apiCatalog)}) and the AI catalog (${absolute(DOCUMENT_PATHS.aiCatalog)}).`,
      ...sections,
      `## Full text\n\n${files.join('\n')}`,
      `## Optional\n\n- [Sitemap](${absolute(DOCUMENT_PATHS.sitemap)}): every published page\n- [Capabilities JSON Schema](${absolute(DOCUMENT_PATHS.capabilitiesSchema)}): shape of the capabilities document`,
    ].join('\n\n') + '\n'
  );
}

export function llmsFullTxt(model: SiteModel): string {
  return fullText(model).whole;
}
