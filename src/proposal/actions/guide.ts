/** The guide action: non-binding guidance derived only from the published content. Deterministic. */
import { NOT_SURE } from '../../contract/fields.ts';
import type { GuideRequest } from '../../contract/requests.ts';
import type { Knowledge } from '../../contract/knowledge.ts';
import { partnerWithAside } from '../../contract/partner-phrase.ts';
import type { DoorWords } from './pipeline.ts';

/** Keyword patterns, compiled once (the knowledge is fixed for a function instance). */
const patterns = new Map<string, RegExp>();

function mentions(text: string, keyword: string): boolean {
  const pattern =
    patterns.get(keyword) ?? new RegExp(`(?:^|[^\\p{L}\\p{N}])${RegExp.escape(keyword)}(?:$|[^\\p{L}\\p{N}])`, 'iu');
  patterns.set(keyword, pattern);
  return pattern.test(text);
}

/** Startups vs established businesses: company size first, then the words of the question. */
function pickAudience(k: Knowledge, size: GuideRequest['company_size'], text: string) {
  const bySize = k.audiences.filter((a) => a.company_sizes.includes(size));
  const startupish = /\b(startup|start-up|seed|series [a-c]|founder|mvp|pre-revenue|yc)\b/i.test(text);
  const candidates = bySize.length > 0 ? bySize : k.audiences;
  return candidates.find((a) => (a.id === 'startups') === startupish) ?? candidates[0];
}

export function guide(k: Knowledge, req: GuideRequest, door: DoorWords) {
  const text = `${req.question} ${req.industry}`;
  const scored = k.capabilities
    .map((c, order) => {
      const matched = c.keywords.filter((keyword) => mentions(text, keyword));
      const primary = req.primary_need === c.id;
      return { c, order, matched, primary, score: (primary ? 5 : 0) + matched.length };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, 3);

  const audience = pickAudience(k, req.company_size, text);
  const top = scored[0]?.c.id;
  const unsure = req.primary_need === NOT_SURE && scored.length === 0;
  const fit = (m: Knowledge['engagement_models'][number]) =>
    (top && m.suggested_for.includes(top) ? 2 : 0) + scored.filter((s) => m.suggested_for.includes(s.c.id)).length;
  const model = unsure
    ? (k.engagement_models.find((m) => m.id === 'assessment') ?? k.engagement_models[0])
    : k.engagement_models
        .map((m, order) => ({ m, order, score: fit(m) }))
        .sort((a, b) => b.score - a.score || a.order - b.order)[0]?.m;

  const programItems =
    audience?.id === 'startups' ? k.program_support.startup_support : k.program_support.partner_program_support;

  return {
    action: 'guide' as const,
    non_binding: true as const,
    notice: `Non-binding guidance from ${partnerWithAside(k.partner)}. It is not an offer or a commitment; a proposal follows a conversation.`,
    audience: audience ? { id: audience.id, title: audience.title, typical_needs: audience.needs } : null,
    capabilities: scored.map((s) => ({
      id: s.c.id,
      name: s.c.name,
      summary: s.c.summary,
      includes: s.c.includes,
      why: [
        ...(s.primary ? ['it is the primary need you named'] : []),
        ...(s.matched.length > 0 ? [`your question mentions ${s.matched.map((m) => `"${m}"`).join(', ')}`] : []),
      ].join('; '),
      url: s.c.url,
    })),
    engagement_model: model
      ? { id: model.id, name: model.name, description: model.description, why: model.best_when }
      : null,
    alternatives: k.engagement_models
      .filter((m) => m.id !== model?.id)
      .map((m) => ({ id: m.id, name: m.name, best_when: m.best_when })),
    cloud_program_context: {
      summary: `Depending on the provider's own review, you may qualify for support such as: ${programItems.join('; ')}.`,
      may_qualify_for: programItems,
      disclaimer: k.program_support.disclaimer,
    },
    prepare: k.useful_intake_fields,
    next_steps: [
      `Review your request with ${door.action('summarize')}, or in the proposal workspace at ${k.urls.proposal_page}.`,
      `Submit it with ${door.action('submit')}, consent and an idempotency key (${door.key}) when it is ready.`,
      'Never include credentials, private architecture diagrams, confidential financial information, regulated data or secrets.',
    ],
    proposal_workspace: k.urls.proposal_page,
  };
}

export type GuideReply = ReturnType<typeof guide>;
