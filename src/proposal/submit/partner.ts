/** What the submit pipeline says about the partner and the consent, from content via Knowledge. */
import type { Knowledge } from '../knowledge.ts';

export interface Partner {
  /** Display name, e.g. "Kestrel Cloud". */
  name: string;
  /** How the partner is described, from content: "an independent cloud consulting and delivery partner". */
  describedAs: string;
  /** Where replies to the confirmation email go. */
  email: string;
  /** The proposal workspace, sent to the CRM as the page of the submission. */
  proposalUrl: string;
}

export interface ConsentText {
  text: string;
  version: string;
}

/** The partner as the pipeline names it, from the function's knowledge: the one mapping of its fields. */
export function partnerOf(k: Pick<Knowledge, 'partner' | 'urls'>): Partner {
  return {
    name: k.partner.name,
    describedAs: k.partner.described_as,
    email: k.partner.email,
    proposalUrl: k.urls.proposal_page,
  };
}
