/**
 * What agent operators are told about signed requests, in one place: SKILL.md and the /agents page
 * read it (docs/api.md says the same for developers). Its figures are the profile's own.
 */
import { AGENT_IDENTITY_LIMITS, KEY_DIRECTORY_PATH, WEB_BOT_AUTH_TAG } from './profile.ts';

const L = AGENT_IDENTITY_LIMITS;

/** Markdown paragraphs, for people who build or run agents. */
export function signedRequestsText(): string[] {
  return [
    `If your agent signs its requests with HTTP Message Signatures (RFC 9421) under the Web Bot Auth profile, each request it submits is recorded as sent by your agent: \`verified\` when the signature checks against your published key, otherwise \`invalid\` (with the reason) or \`unverified\` (your key directory could not be read in time). Sales, the CRM record and the inbox show it, e.g. "sent by example.com agent, verified; body not covered".`,
    `What is checked: a signature with \`tag="${WEB_BOT_AUTH_TAG}"\` that covers \`@authority\` (this site's host as you sent it) and, when you send a \`Signature-Agent\` header, that header too, in the string form (\`"https://example.com"\`) or the dictionary form of draft-ietf-webbotauth-httpsig-protocol (\`agent1="https://example.com"\`, covered as \`"signature-agent";key="agent1"\`); \`created\` and \`expires\` at most ${L.maxValiditySeconds} s apart (${L.clockSkewSeconds} s of clock skew allowed); Ed25519, with \`keyid\` the JWK thumbprint (RFC 7638) of a key listed at \`<your Signature-Agent origin>${KEY_DIRECTORY_PATH}\` (HTTPS, answered within ${L.directoryTimeoutMs / 1000} s, kept as long as its Cache-Control max-age says, at most a day). A \`nonce\` seen twice by the same server instance is recorded as a replay. Sign \`content-digest\` (RFC 9530, sha-256 or sha-512) to have the body recorded as covered.`,
    `It is a record, not a gate: no request is refused for its signature or its lack of one, and a verified agent meets every rule and limit an unsigned one does. A signature names your operator, never the person you act for or their consent.`,
  ];
}
