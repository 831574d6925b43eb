/**
 * Verifies the Web Bot Auth signature of a request (RFC 9421 under the Web Bot Auth profile) into a
 * record of who sent it: never a gate. The RFC 9421 mechanics (signature base, component values,
 * Ed25519 over WebCrypto) are http-message-sig's; the profile it does not know (tag, what must be
 * covered, the window, the key directory, nonces, the body's digest) is checked here, once.
 *
 * Never throws, and never waits longer than the key directory's timeout: a request is answered as
 * usual whatever its signature says.
 */
import { isSignatureError, SignatureErrorCode, verifySignature, webcrypto } from 'http-message-sig';
import { bodyCopy, checkContentDigest } from './content-digest.ts';
import { KeyDirectories, operatorOrigin } from './directory.ts';
import { covers, signedOperator, webBotAuthInput, type WebBotAuthInput } from './headers.ts';
import type { AgentIdentity } from './model.ts';
import { NonceLog } from './nonces.ts';
import { AGENT_IDENTITY_LIMITS, LOOPBACK_DIRECTORY_ENV } from './profile.ts';

export interface AgentIdentityDeps {
  directories: KeyDirectories;
  nonces: NonceLog;
  /** Milliseconds since the epoch: `created`, `expires` and the directory cache are read on it. */
  now: () => number;
  allowLoopbackHttp: boolean;
}

/** The verifier's state for one instance: its directory cache and nonce log. `fetch`, `now` injectable for tests. */
export function agentIdentityDeps(options: {
  allowLoopbackHttp: boolean;
  fetch?: typeof fetch;
  now?: () => number;
  timeoutMs?: number;
}): AgentIdentityDeps {
  const now = options.now ?? Date.now;
  return {
    directories: new KeyDirectories({
      fetch: options.fetch ?? globalThis.fetch,
      now,
      timeoutMs: options.timeoutMs ?? AGENT_IDENTITY_LIMITS.directoryTimeoutMs,
      allowLoopbackHttp: options.allowLoopbackHttp,
    }),
    nonces: new NonceLog(),
    now,
    allowLoopbackHttp: options.allowLoopbackHttp,
  };
}

export function agentIdentityDepsFromEnv(readEnv: (name: string) => string | undefined): AgentIdentityDeps {
  return agentIdentityDeps({ allowLoopbackHttp: readEnv(LOOPBACK_DIRECTORY_ENV) === '1' });
}

/** Identifiers as they are written for the components real signers cover; anything else is not stored. */
const SAFE_IDENTIFIER = /^"[@a-z0-9._-]{1,64}"(;[a-z]{1,16}(="[A-Za-z0-9._-]{0,64}"|=\?[01])?)*$/;
const SAFE_KEY_ID = /^[A-Za-z0-9_-]{1,128}$/;

function described(input: WebBotAuthInput): Pick<AgentIdentity, 'key_id' | 'covered'> {
  return {
    ...(input.keyid !== undefined && SAFE_KEY_ID.test(input.keyid) && { key_id: input.keyid }),
    covered: input.covered.filter((c) => SAFE_IDENTIFIER.test(c)),
  };
}

/** Fixed phrases for what http-message-sig reports: its messages may quote the request. */
function libraryReason(error: unknown): string {
  if (!isSignatureError(error)) return 'the signature could not be checked';
  switch (error.code) {
    case SignatureErrorCode.VerificationFailed:
      return 'the signature does not match the request';
    case SignatureErrorCode.MissingField:
      return 'a covered header is missing';
    case SignatureErrorCode.PolicyViolation:
      return 'the signature breaks the Web Bot Auth profile';
    default:
      return 'the signature is malformed';
  }
}

/** The profile's checks on what Signature-Input claims: a fixed phrase for the first that fails. */
function profileRefusal(input: WebBotAuthInput, nowS: number): string | undefined {
  const { clockSkewSeconds: skew, maxValiditySeconds } = AGENT_IDENTITY_LIMITS;
  if (!covers(input, '@authority')) return 'the signature does not cover @authority';
  if (input.alg !== undefined && input.alg !== 'ed25519') return 'the signature is not Ed25519';
  if (input.keyid === undefined) return 'the signature names no keyid';
  if (input.created === undefined || input.expires === undefined) return 'the signature lacks created or expires';
  if (input.created > nowS + skew) return 'the signature was created in the future';
  if (input.expires < nowS - skew) return 'the signature has expired';
  if (input.expires - input.created > maxValiditySeconds) {
    return `the signature is valid for more than ${maxValiditySeconds} s`;
  }
  return undefined;
}

export async function verifyAgentIdentity(request: Request, deps: AgentIdentityDeps): Promise<AgentIdentity> {
  const signature = request.headers.get('signature');
  const signatureInput = request.headers.get('signature-input');
  if (signature === null && signatureInput === null) return { outcome: 'absent' };
  try {
    // Started before any await: the copy must be taken before the handler reads the body.
    const digest = request.headers.get('content-digest');
    const body = digest !== null && /content-digest/i.test(signatureInput ?? '') ? bodyCopy(request) : undefined;
    return await verified(request, deps, signatureInput, signature, digest, body);
  } catch {
    return { outcome: 'invalid', reason: 'the signature could not be checked' };
  }
}

async function verified(
  request: Request,
  deps: AgentIdentityDeps,
  signatureInput: string | null,
  signature: string | null,
  digest: string | null,
  body: Promise<Uint8Array | null> | undefined,
): Promise<AgentIdentity> {
  if (signatureInput === null || signature === null) {
    return { outcome: 'invalid', reason: 'Signature and Signature-Input must be sent together' };
  }
  const input = webBotAuthInput(signatureInput);
  if ('refused' in input) return { outcome: 'invalid', reason: input.refused };
  const nowMs = deps.now();
  const nowS = Math.floor(nowMs / 1000);
  const seen = described(input);
  const claimed = signedOperator(request.headers.get('signature-agent'), input);
  const origin = typeof claimed === 'string' ? operatorOrigin(claimed, deps.allowLoopbackHttp) : claimed;
  const operator = 'origin' in origin ? { operator: origin.origin } : {};
  const invalid = (reason: string): AgentIdentity => ({ outcome: 'invalid', ...operator, ...seen, reason });

  const refusal = profileRefusal(input, nowS);
  if (refusal !== undefined) return invalid(refusal);
  if ('refused' in origin) return invalid(origin.refused);

  const lookup = await deps.directories.key(origin.origin, input.keyid!);
  if (lookup.kind === 'unavailable') return { outcome: 'unverified', ...operator, ...seen, reason: lookup.reason };
  if (lookup.kind === 'unknown-key') return invalid("the keyid is not in the operator's key directory");

  try {
    await verifySignature(request, {
      label: input.label,
      policy: {
        algorithms: ['ed25519'],
        requiredComponents: ['@authority'],
        requiredParameters: ['created', 'expires', 'keyid', 'tag'],
        clockSkew: AGENT_IDENTITY_LIMITS.clockSkewSeconds,
        now: nowS,
      },
      resolveVerifier: () => webcrypto.verifier(lookup.key),
    });
  } catch (error) {
    return invalid(libraryReason(error));
  }

  if (input.nonce !== undefined) {
    const until = (input.expires! + AGENT_IDENTITY_LIMITS.clockSkewSeconds) * 1000;
    if (deps.nonces.replayed(`${origin.origin} ${input.keyid!} ${input.nonce}`, until, nowMs)) {
      return invalid('the nonce was used before (a replay)');
    }
  }

  let bodyCovered = false;
  if (covers(input, 'content-digest') && digest !== null && body !== undefined) {
    const check = checkContentDigest(digest, await body);
    if (check === 'mismatch') return invalid('content-digest does not match the body');
    bodyCovered = check === 'match';
  }
  return { outcome: 'verified', ...operator, ...seen, body_covered: bodyCovered };
}
