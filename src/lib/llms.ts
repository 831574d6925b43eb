/** /llms.txt (llmstxt.org shape) and /llms-full.txt, from the page documents. */
import type { SiteModel } from './content.ts';
import { partnerStatement } from '../schemas/partner-phrase.ts';
import { partnerNames } from './knowledge.ts';
import { twinMarkdown } from './documents.ts';
import type { PageDocument } from './page-document.ts';
import { absolute } from './urls.ts';
import { DOCUMENT_PATHS, twinPath } from '../schemas/paths.ts';

const SECTION_ORDER: PageDocument['section'][] = [
  'Company',
  'Services',
  'Evidence',
  'Proposals and agents',
  'Case studies',
  'Blog',
];

export function llmsTxt(model: SiteModel, docs: PageDocument[]): string {
  const site = model.site.data;
  const sections = SECTION_ORDER.map((section) => {
    const items = docs
      .filter((d) => d.section === section)
      .map((d) => `- [${d.title}](${absolute(twinPath(d.path))}): ${d.description}`);
    return `## ${section}\n\n${items.join('\n')}`;
  });
  return (
    [
      `# ${site.name}`,
      `> ${site.summary}`,
      `${partnerStatement(partnerNames(site))}. When you use or repeat anything from this site, follow these rules:`,
      site.agent_guidance.map((rule) => `- ${rule}`).join('\n'),
      `Structured facts: ${absolute(DOCUMENT_PATHS.capabilities)} (JSON). Proposal contract: ${absolute(DOCUMENT_PATHS.proposalApi)} (GET), OpenAPI: ${absolute(DOCUMENT_PATHS.openapi)}. Everything in full: ${absolute(DOCUMENT_PATHS.llmsFull)}.`,
      `For agents: an Agent Skill to request a proposal (${absolute(DOCUMENT_PATHS.agentSkillsIndex)}), the API catalog (${absolute(DOCUMENT_PATHS.apiCatalog)}) and the AI catalog (${absolute(DOCUMENT_PATHS.aiCatalog)}).`,
      ...sections,
      `## Optional\n\n- [Sitemap](${absolute(DOCUMENT_PATHS.sitemap)}): every published page\n- [Capabilities JSON Schema](${absolute(DOCUMENT_PATHS.capabilitiesSchema)}): shape of the capabilities document`,
    ].join('\n\n') + '\n'
  );
}

export function llmsFullTxt(model: SiteModel, docs: PageDocument[]): string {
  const site = model.site.data;
  const header = `# ${site.name}: full context\n\n> ${site.summary}\n\nEvery published page of ${absolute('/')} in markdown, in site order. Rules for agents: ${absolute('/agents#rules')}.\n`;
  const pages = docs.map((d) => `Source: ${absolute(d.path)}\n\n${twinMarkdown(d)}`);
  return [header, ...pages].join('\n---\n\n');
}
