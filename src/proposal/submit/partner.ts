/** What the submit pipeline says about the partner and the consent, from content via Knowledge. */
import { NOT_SURE, NOT_SURE_LABEL } from '../../contract/fields.ts';

export interface Partner {
  /** Display name, e.g. "Kestrel Cloud". */
  name: string;
  /** How the partner is described, from content: "an independent cloud consulting and delivery partner". */
  describedAs: string;
  /** Where replies to the confirmation email go. */
  email: string;
  /** The proposal workspace, sent to the CRM as the page of the submission. */
  proposalUrl: string;
  /** The privacy notice, named in the confirmation email. */
  privacyUrl?: string;
  /** The site's names for the ids a sender picks from the contract's lists: the email names them, never quoting the sender. */
  choiceLabels?: Readonly<Record<string, string>>;
}

export interface ConsentText {
  text: string;
  version: string;
}

/** The pipeline's Partner from the build's knowledge: one mapping for the function and the scripts. */
export function partnerFromKnowledge(k: {
  partner: { name: string; described_as: string; email: string };
  urls: { proposal_page: string; privacy?: string };
  capabilities?: readonly { id: string; name: string }[];
  engagement_models?: readonly { id: string; name: string }[];
}): Partner {
  const choices = [...(k.capabilities ?? []), ...(k.engagement_models ?? [])];
  return {
    name: k.partner.name,
    describedAs: k.partner.described_as,
    email: k.partner.email,
    proposalUrl: k.urls.proposal_page,
    ...(k.urls.privacy !== undefined && { privacyUrl: k.urls.privacy }),
    choiceLabels: Object.fromEntries<string>([
      ...choices.map((c): [string, string] => [c.id, c.name]),
      [NOT_SURE, NOT_SURE_LABEL],
    ]),
  };
}
