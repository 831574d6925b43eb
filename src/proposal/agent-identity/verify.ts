/**
 * The Web Bot Auth signature of a submit (RFC 9421 under the Web Bot Auth profile): a record of who
 * sent it, never a gate, verified when the submit is stored, from the body the door read. RFC 9421 is
 * http-message-sig's; the profile (tag, coverage, window, key directory, nonces, the body's digest) is
 * checked here. Never throws, and never waits longer than the key directory's timeout.
 */
import { createHash, hash, timingSafeEqual } from 'node:crypto';
import { isSignatureError, SignatureErrorCode, verifySignature, webcrypto } from 'http-message-sig';
import { AGENT_IDENTITY_LIMITS as LIMITS, type AgentIdentity } from '../../contract/web-bot-auth.ts';
import { StoreUnavailable, type ProposalsStore } from '../store/blobs.ts';
import { NONCES_PREFIX } from '../store/expiring.ts';
import { operatorOrigin, type KeyDirectories } from './directory.ts';
import { covers, dictionaryOf, signedOperator, webBotAuthInput, type WebBotAuthInput } from './headers.ts';

/** `store` remembers nonces across instances for their signature's window; `now` is in ms since the epoch. */
export type VerifyDeps = {
  directories: KeyDirectories;
  store: ProposalsStore;
  now: () => number;
  loopbackHttp: boolean;
};

/** Identifiers as real signers write them; anything else is not stored. */
const SAFE_IDENTIFIER = /^"[@a-z0-9._-]{1,64}"(;[a-z]{1,16}(="[A-Za-z0-9._-]{0,64}"|=\?[01])?)*$/;

const described = (input: WebBotAuthInput): Pick<AgentIdentity, 'key_id' | 'covered'> => ({
  ...(input.keyid !== undefined && /^[A-Za-z0-9_-]{1,128}$/.test(input.keyid) && { key_id: input.keyid }),
  covered: input.covered.filter((c) => SAFE_IDENTIFIER.test(c)),
});

/** Fixed phrases for what http-message-sig reports: its messages may quote the request. */
const LIBRARY_REASONS: Partial<Record<string, string>> = {
  [SignatureErrorCode.VerificationFailed]: 'the signature does not match the request',
  [SignatureErrorCode.MissingField]: 'a covered header is missing',
  [SignatureErrorCode.PolicyViolation]: 'the signature breaks the Web Bot Auth profile',
};

function profileRefusal(input: WebBotAuthInput, nowS: number): string | undefined {
  const skew = LIMITS.clockSkewSeconds;
  if (!covers(input, '@authority')) return 'the signature does not cover @authority';
  if (input.alg !== undefined && input.alg !== 'ed25519') return 'the signature is not Ed25519';
  if (input.keyid === undefined) return 'the signature names no keyid';
  if (input.created === undefined || input.expires === undefined) return 'the signature lacks created or expires';
  if (input.created > nowS + skew) return 'the signature was created in the future';
  if (input.expires < nowS - skew) return 'the signature has expired';
  if (input.expires - input.created > LIMITS.maxValiditySeconds)
    return `the signature is valid for more than ${LIMITS.maxValiditySeconds} s`;
  return undefined;
}

export async function verifyAgentIdentity(
  request: Request,
  body: Uint8Array | undefined,
  deps: VerifyDeps,
): Promise<AgentIdentity> {
  const signature = request.headers.get('signature');
  const signatureInput = request.headers.get('signature-input');
  if (signature === null && signatureInput === null) return { outcome: 'absent' };
  if (signatureInput === null || signature === null)
    return { outcome: 'invalid', reason: 'Signature and Signature-Input must be sent together' };
  return verified(request, body, deps, signatureInput).catch((): AgentIdentity => ({
    outcome: 'invalid',
    reason: 'the signature could not be checked',
  }));
}

async function verified(
  request: Request,
  body: Uint8Array | undefined,
  deps: VerifyDeps,
  signatureInput: string,
): Promise<AgentIdentity> {
  const input = webBotAuthInput(signatureInput);
  if ('refused' in input) return { outcome: 'invalid', reason: input.refused };
  const nowMs = deps.now();
  const nowS = Math.floor(nowMs / 1000);
  const claimed = signedOperator(request.headers.get('signature-agent'), input);
  const origin = typeof claimed === 'string' ? operatorOrigin(claimed, deps.loopbackHttp) : claimed;
  const seen = { ...('origin' in origin && { operator: origin.origin }), ...described(input) };
  const invalid = (reason: string): AgentIdentity => ({ outcome: 'invalid', ...seen, reason });

  const refusal = profileRefusal(input, nowS);
  if (refusal !== undefined) return invalid(refusal);
  if ('refused' in origin) return invalid(origin.refused);

  const lookup = await deps.directories.key(origin.origin, input.keyid!);
  if (lookup.kind === 'unavailable') return { outcome: 'unverified', ...seen, reason: lookup.reason };
  if (lookup.kind === 'refused') return invalid(lookup.reason);
  if (lookup.kind === 'unknown-key') return invalid("the keyid is not in the operator's key directory");
  try {
    await verifySignature(request, {
      label: input.label,
      policy: {
        algorithms: ['ed25519'],
        requiredComponents: ['@authority'],
        requiredParameters: ['created', 'expires', 'keyid', 'tag'],
        clockSkew: LIMITS.clockSkewSeconds,
        now: nowS,
      },
      resolveVerifier: () => webcrypto.verifier(lookup.key),
    });
  } catch (error) {
    return invalid((isSignatureError(error) && LIBRARY_REASONS[error.code]) || 'the signature is malformed');
  }

  if (input.nonce !== undefined) {
    // Remembered across instances until the signature expires: a create-if-new name of the nonce.
    const until = new Date((input.expires! + LIMITS.clockSkewSeconds) * 1000).toISOString();
    const name = hash('sha256', `${origin.origin} ${input.keyid!} ${input.nonce}`);
    try {
      const at = new Date(nowMs).toISOString();
      if ((await deps.store.writeIf(`${NONCES_PREFIX}${until}/${name}`, { at }, { ifNew: true })) === null)
        return invalid('the nonce was used before (a replay)');
    } catch (error) {
      if (!(error instanceof StoreUnavailable)) throw error;
      return { outcome: 'unverified', ...seen, reason: 'the nonce could not be checked' };
    }
  }

  const digest = request.headers.get('content-digest');
  const check = covers(input, 'content-digest') && digest !== null ? checkContentDigest(digest, body) : 'unchecked';
  if (check === 'mismatch') return invalid('content-digest does not match the body');
  return { outcome: 'verified', ...seen, body_covered: check === 'match' };
}

const DIGESTS = { 'sha-256': 'sha256', 'sha-512': 'sha512' } as const;

/** Whether a Content-Digest (RFC 9530) matches the body; `unchecked`: none in an algorithm computed here, or no body. */
function checkContentDigest(header: string, body: Uint8Array | undefined): 'match' | 'mismatch' | 'unchecked' {
  if (body === undefined) return 'unchecked';
  const dictionary = dictionaryOf(header);
  if (dictionary === undefined) return 'mismatch';
  let checked = false;
  for (const [name, algorithm] of Object.entries(DIGESTS)) {
    const sent = dictionary.get(name)?.[0];
    if (sent === undefined) continue;
    if (!(sent instanceof ArrayBuffer)) return 'mismatch';
    const [given, computed] = [Buffer.from(sent), createHash(algorithm).update(body).digest()];
    if (given.length !== computed.length || !timingSafeEqual(given, computed)) return 'mismatch';
    checked = true;
  }
  return checked ? 'match' : 'unchecked';
}
