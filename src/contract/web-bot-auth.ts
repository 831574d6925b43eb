/**
 * The Web Bot Auth profile of HTTP Message Signatures (RFC 9421) as this site checks it, and every
 * number the check uses, and what operators are told of it: one home, read by the verifier, its
 * tests, the bench, SKILL.md and the /agents page.
 */

/** The `tag` a Web Bot Auth signature carries; signatures with any other tag are for someone else. */
export const WEB_BOT_AUTH_TAG = 'web-bot-auth';

/** Where an operator publishes its keys, below the origin its Signature-Agent names. */
export const KEY_DIRECTORY_PATH = '/.well-known/http-message-signatures-directory';

export const AGENT_IDENTITY_LIMITS = {
  /** How long a key directory may take, headers and body: the most a signed request can add to a reply. */
  directoryTimeoutMs: 1_500,
  /** The largest key directory read; a directory lists a few keys. */
  directoryMaxBytes: 64 * 1024,
  /** Kept this long when the directory sends no Cache-Control max-age. */
  defaultCacheSeconds: 300,
  /** Never kept longer, whatever max-age says, so a withdrawn key stops verifying within a day. */
  maxCacheSeconds: 86_400,
  /** A directory that could not be read is not asked again for this long (each signed request would wait its timeout). */
  failureCacheSeconds: 30,
  /** Operators whose directories are kept at once; the oldest entry goes first. */
  maxCachedOperators: 256,
  /** The longest `expires - created` accepted: a signature is made for one request, not for reuse. */
  maxValiditySeconds: 300,
  /** Clock difference tolerated between the signer and this site, on `created` and `expires`. */
  clockSkewSeconds: 30,
} as const;

/**
 * Set by `npm start` and `npm run dev` (scripts/serve.ts, scripts/dev.ts): a Signature-Agent on
 * loopback (`http://127.0.0.1:<port>`, `http://[::1]:<port>`, `http://localhost:<port>`) is fetched
 * over plain HTTP, so any signer can be tried locally. Never set on a deploy: there only HTTPS.
 */
export const LOOPBACK_DIRECTORY_ENV = 'AGENT_DIRECTORY_LOOPBACK_HTTP';

const L = AGENT_IDENTITY_LIMITS;

/** Markdown paragraphs, for people who build or run agents. */
export function signedRequestsText(): string[] {
  return [
    `If your agent signs its requests with HTTP Message Signatures (RFC 9421) under the Web Bot Auth profile, each request it submits is recorded as sent by your agent: \`verified\` when the signature checks against your published key, otherwise \`invalid\` (with the reason) or \`unverified\` (your key directory could not be read in time). Sales, the CRM record and the inbox show it, e.g. "sent by example.com agent, verified; body not covered".`,
    `What is checked: a signature with \`tag="${WEB_BOT_AUTH_TAG}"\` that covers \`@authority\` (this site's host as you sent it) and, when you send a \`Signature-Agent\` header, that header too, in the string form (\`"https://example.com"\`) or the dictionary form of draft-ietf-webbotauth-httpsig-protocol (\`agent1="https://example.com"\`, covered as \`"signature-agent";key="agent1"\`); \`created\` and \`expires\` at most ${L.maxValiditySeconds} s apart (${L.clockSkewSeconds} s of clock skew allowed); Ed25519, with \`keyid\` the JWK thumbprint (RFC 7638) of a key listed at \`<your Signature-Agent origin>${KEY_DIRECTORY_PATH}\` (HTTPS on port 443 of a host that resolves to public addresses only, fetched when a submit is stored, answered within ${L.directoryTimeoutMs / 1000} s, kept as long as its Cache-Control max-age says, at most a day). A \`nonce\` seen twice within its signature's window is recorded as a replay. Sign \`content-digest\` (RFC 9530, sha-256 or sha-512) to have the body recorded as covered.`,
    `It is a record, not a gate: no request is refused for its signature or its lack of one, and a verified agent meets every rule and limit an unsigned one does. A signature names your operator, never the person you act for or their consent.`,
  ];
}

/**
 * What a request's signature proved, stored with it: never a person or their consent. `verified`:
 * checked against the operator's published key; `invalid`: fails the profile or the key;
 * `unverified`: the key directory (or the nonce store) could not be read in time; `absent`: not signed.
 */
export interface AgentIdentity {
  outcome: 'verified' | 'invalid' | 'unverified' | 'absent';
  /** The origin Signature-Agent names (`https://chatgpt.com`). */
  operator?: string;
  /** The RFC 7638 thumbprint of the operator's Ed25519 key. */
  key_id?: string;
  /** The covered components as RFC 9421 identifiers (`"@authority"`). */
  covered?: string[];
  /** `content-digest` signed and matching the body received. */
  body_covered?: boolean;
  /** One of the verifier's fixed phrases, never text from the request. */
  reason?: string;
}

/**
 * The one line people read (the sales notice, the CRM, the inbox): `sent by chatgpt.com agent,
 * verified; body not covered`, `signed as … agent, not verified: …`, `not signed`. Host names and
 * fixed phrases only, so it is safe in mail, chat and CSV alike.
 */
export function agentIdentityText(identity: AgentIdentity | undefined): string {
  if (identity === undefined) return 'not recorded';
  const name = URL.parse(identity.operator ?? '')?.host ?? 'an unnamed operator';
  if (identity.outcome === 'absent') return 'not signed';
  if (identity.outcome === 'verified')
    return `sent by ${name} agent, verified; body ${identity.body_covered === true ? 'covered' : 'not covered'}`;
  const how = identity.outcome === 'unverified' ? 'not verified' : 'signature invalid';
  return `signed as ${name} agent, ${how}: ${identity.reason ?? 'not checked'}`;
}
