/** What the submit pipeline says about the partner and the consent, from content via Knowledge. */
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
