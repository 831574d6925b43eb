/**
 * robots.txt for search engines and AI agents: rules for named AI crawlers derived from the
 * content signals set in content/site.md, the same signals as a `Content-Signal:` line
 * (contentsignals.org), then where the sitemap is. Only directives that robots.txt validators
 * know (Lighthouse's `robots-txt` audit lists them): the aipref `Content-Usage` preference is the
 * HTTP header of every response (headers-file.ts), and the agent catalog is announced by
 * `<link rel="ai-catalog">` and the `Link` header, root-relative so it resolves on every host.
 */
import type { SiteData } from '../content/entry-schema.ts';
import { absolute } from '../pages/urls.ts';
import { DOCUMENT_PATHS } from '../../contract/paths.ts';

type Signals = SiteData['content_signals'];

/**
 * Well-known AI user agents, grouped by the signal that governs them: crawlers that index for
 * AI search, agents that fetch a page because a person asked, and crawlers that collect training data.
 */
export const AI_USER_AGENTS = {
  search: ['OAI-SearchBot', 'Claude-SearchBot', 'PerplexityBot'],
  ai_input: ['ChatGPT-User', 'Claude-User', 'Perplexity-User', 'MistralAI-User'],
  ai_train: ['GPTBot', 'ClaudeBot', 'Google-Extended', 'Applebot-Extended', 'CCBot', 'meta-externalagent'],
} as const satisfies Record<keyof Signals, readonly string[]>;

/** `Content-Signal: search=yes, ai-input=yes, ai-train=no`. */
export function contentSignal(signals: Signals): string {
  return `search=${signals.search}, ai-input=${signals.ai_input}, ai-train=${signals.ai_train}`;
}

/**
 * The aipref `Content-Usage` header value: `search` and `train-ai` map one to one; aipref has no
 * category for answering a question at request time (ai-input), so it stays unstated there.
 */
export function contentUsage(signals: Signals): string {
  const yn = (v: 'yes' | 'no') => (v === 'yes' ? 'y' : 'n');
  return `train-ai=${yn(signals.ai_train)}, search=${yn(signals.search)}`;
}

function group(agents: readonly string[], allowed: boolean, signals: Signals): string {
  return [
    ...agents.map((a) => `User-agent: ${a}`),
    allowed ? 'Allow: /' : 'Disallow: /',
    `Content-Signal: ${contentSignal(signals)}`,
  ].join('\n');
}

export function robotsTxt(site: SiteData): string {
  const signals = site.content_signals;
  const named = (Object.keys(AI_USER_AGENTS) as (keyof Signals)[]).map(
    (signal) =>
      `# AI ${signal.replace('_', '-')} (${signals[signal]})\n${group(AI_USER_AGENTS[signal], signals[signal] === 'yes', signals)}`,
  );
  return (
    [
      `# ${site.name}: ${absolute('/')}. Content signals: https://contentsignals.org/ and IETF aipref.`,
      `# Agents: ${absolute(DOCUMENT_PATHS.llmsTxt)}, ${absolute(DOCUMENT_PATHS.apiCatalog)}, ${absolute(DOCUMENT_PATHS.aiCatalog)}`,
      group(['*'], true, signals),
      ...named,
      `Sitemap: ${absolute(DOCUMENT_PATHS.sitemap)}`,
    ].join('\n\n') + '\n'
  );
}
