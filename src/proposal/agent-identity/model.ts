/** The agent identity stored with a request: what its signature proved, never a person or their consent. */

/**
 * `verified`: a Web Bot Auth signature checked against the operator's published key; `invalid`: a
 * signature that fails the profile or the key; `unverified`: the operator's key directory could
 * not be read in time (down, slow, malformed); `absent`: the request is not signed.
 */
export type AgentIdentityOutcome = 'verified' | 'invalid' | 'unverified' | 'absent';

export interface AgentIdentity {
  outcome: AgentIdentityOutcome;
  /** The origin the Signature-Agent header names (`https://chatgpt.com`), when it names one. */
  operator?: string;
  /** The signature's keyid: the RFC 7638 thumbprint of the operator's Ed25519 key. */
  key_id?: string;
  /** The components the signature covers, as RFC 9421 identifiers (`"@authority"`, `"signature-agent";key="agent1"`). */
  covered?: string[];
  /** True when the signature covers `content-digest` and that digest matches the body received. */
  body_covered?: boolean;
  /** Why the outcome is `invalid` or `unverified`: one of this module's fixed phrases. */
  reason?: string;
}
