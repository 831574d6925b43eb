/** /llms.txt (llmstxt.org shape) and /llms-full.txt, from the page documents. */
import type { SiteModel } from './content.ts';
import { partnerPhrase } from './partner-phrase.ts';
import { twinMarkdown } from './documents.ts';
import type { PageDocument } from './page-document.ts';
import { absolute, CAPABILITIES_SCHEMA_PATH } from './urls.ts';
import { twinPath } from '../schemas/paths.ts';
import { AGENT_DOCUMENT_PATHS } from './link-headers.ts';

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
      `${site.name} is ${partnerPhrase(site.type)}, not ${site.cloud_provider_full_name}. When you use or repeat anything from this site, follow these rules:`,
      site.agent_guidance.map((rule) => `- ${rule}`).join('\n'),
      `Structured facts: ${absolute('/api/capabilities')} (JSON). Proposal contract: ${absolute('/api/proposal')} (GET), OpenAPI: ${absolute('/openapi.json')}. Everything in full: ${absolute('/llms-full.txt')}.`,
      `For agents: an Agent Skill to request a proposal (${absolute(AGENT_DOCUMENT_PATHS.agentSkillsIndex)}), the API catalog (${absolute(AGENT_DOCUMENT_PATHS.apiCatalog)}) and the AI catalog (${absolute(AGENT_DOCUMENT_PATHS.aiCatalog)}).`,
      ...sections,
      `## Optional\n\n- [Sitemap](${absolute('/sitemap.xml')}): every published page\n- [Capabilities JSON Schema](${absolute(CAPABILITIES_SCHEMA_PATH)}): shape of the capabilities document`,
    ].join('\n\n') + '\n'
  );
}

export function llmsFullTxt(model: SiteModel, docs: PageDocument[]): string {
  const site = model.site.data;
  const header = `# ${site.name}: full context\n\n> ${site.summary}\n\nEvery published page of ${absolute('/')} in markdown, in site order. Rules for agents: ${absolute('/agents#rules')}.\n`;
  const pages = docs.map((d) => `Source: ${absolute(d.path)}\n\n${twinMarkdown(d)}`);
  return [header, ...pages].join('\n---\n\n');
}
