/**
 * robots.txt: rules for named AI crawlers from content/site.md's content signals, which also go
 * out as a `Content-Signal:` line (contentsignals.org). Only directives robots.txt validators
 * know (Lighthouse's `robots-txt` audit): aipref's `Content-Usage` is a response header
 * (headers-file.ts), and the AI catalog is announced by links, not here.
 */
import type { SiteData } from '../content/entry-schema.ts';
import { absolute } from '../pages/urls.ts';
import { DOCUMENT_PATHS } from '../../contract/paths.ts';

type Signals = SiteData['content_signals'];

/** Well-known AI user agents by the signal that governs them: AI search, fetches a person asked for, training. */
const AI_USER_AGENTS = {
  search: ['OAI-SearchBot', 'Claude-SearchBot', 'PerplexityBot'],
  ai_input: ['ChatGPT-User', 'Claude-User', 'Perplexity-User', 'MistralAI-User'],
  ai_train: ['GPTBot', 'ClaudeBot', 'Google-Extended', 'Applebot-Extended', 'CCBot', 'meta-externalagent'],
} as const satisfies Record<keyof Signals, readonly string[]>;

export function robotsTxt(site: SiteData): string {
  const signals = site.content_signals;
  const group = (agents: readonly string[], allowed: boolean) =>
    [
      ...agents.map((a) => `User-agent: ${a}`),
      allowed ? 'Allow: /' : 'Disallow: /',
      `Content-Signal: search=${signals.search}, ai-input=${signals.ai_input}, ai-train=${signals.ai_train}`,
    ].join('\n');
  const named = (Object.keys(AI_USER_AGENTS) as (keyof Signals)[]).map(
    (signal) =>
      `# AI ${signal.replace('_', '-')} (${signals[signal]})\n${group(AI_USER_AGENTS[signal], signals[signal] === 'yes')}`,
  );
  return (
    [
      `# ${site.name}: ${absolute('/')}. Content signals: https://contentsignals.org/ and IETF aipref.`,
      `# Agents: ${absolute(DOCUMENT_PATHS.llmsTxt)}, ${absolute(DOCUMENT_PATHS.apiCatalog)}, ${absolute(DOCUMENT_PATHS.aiCatalog)}`,
      group(['*'], true),
      ...named,
      `Sitemap: ${absolute(DOCUMENT_PATHS.sitemap)}`,
    ].join('\n\n') + '\n'
  );
}
