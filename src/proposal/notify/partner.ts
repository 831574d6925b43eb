/** What the intake says about the partner, from the content via the build's knowledge. */
import { COMPANY_SIZES, NOT_SURE, NOT_SURE_LABEL } from '../../contract/fields.ts';
import type { Knowledge } from '../../contract/knowledge.ts';

export interface Partner {
  name: string;
  /** "an independent cloud consulting and delivery partner" */
  describedAs: string;
  email: string;
  proposalUrl: string;
  privacyUrl?: string;
  /** The site's names for the ids a sender picks (needs, models, sizes): messages name them, never ids. */
  choiceLabels: Readonly<Record<string, string>>;
  /** When a prospect hears back, and who signs the confirmation (content/site.md). */
  replyTime?: string;
  signatory?: { name: string; role: string };
}

export type ConsentText = { text: string; version: string };

export function partnerFromKnowledge(
  k: Pick<Knowledge, 'partner' | 'urls'> & Partial<Pick<Knowledge, 'capabilities' | 'engagement_models'>>,
): Partner {
  const choices = [...(k.capabilities ?? []), ...(k.engagement_models ?? [])];
  return {
    name: k.partner.name,
    describedAs: k.partner.described_as,
    email: k.partner.email,
    proposalUrl: k.urls.proposal_page,
    ...(k.urls.privacy !== undefined && { privacyUrl: k.urls.privacy }),
    choiceLabels: {
      ...Object.fromEntries(choices.map((c) => [c.id, c.name])),
      ...Object.fromEntries(COMPANY_SIZES.map((s) => [s, `${s} employees`])),
      [NOT_SURE]: NOT_SURE_LABEL,
    },
    ...(k.partner.reply_time !== undefined && { replyTime: k.partner.reply_time }),
    ...(k.partner.signatory !== undefined && { signatory: k.partner.signatory }),
  };
}
