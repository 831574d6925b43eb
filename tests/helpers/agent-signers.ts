/**
 * Agents that sign their requests, each through an independent RFC 9421 library with its own
 * Ed25519 key: Cloudflare's `web-bot-auth` (the Web Bot Auth profile's reference signer) and
 * `http-message-signatures` (a general RFC 9421 implementation, which also signs what the profile
 * forbids: no @authority, another tag, a long window). Neither shares code with the verifier's library.
 */
import { createHash, createPrivateKey } from 'node:crypto';
import { httpbis, createSigner } from 'http-message-signatures';
import { signatureHeaders } from 'web-bot-auth';
import { Ed25519Signer } from 'web-bot-auth/crypto';
import { okpThumbprint } from '../../src/proposal/agent-identity/directory.ts';

export interface AgentKey {
  privateJwk: JsonWebKey;
  publicJwk: JsonWebKey;
  /** RFC 7638 thumbprint: the keyid the profile signs with. */
  keyId: string;
}

export async function newAgentKey(): Promise<AgentKey> {
  const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
  const privateJwk = await crypto.subtle.exportKey('jwk', pair.privateKey);
  const { x = '' } = await crypto.subtle.exportKey('jwk', pair.publicKey);
  return { privateJwk, publicJwk: { kty: 'OKP', crv: 'Ed25519', x }, keyId: okpThumbprint(x) };
}

export interface Unsigned {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** Adds `content-digest: sha-256=:…:` of the body (RFC 9530), for a signature that covers the body. */
export function withContentDigest(request: Unsigned): Unsigned {
  const digest = createHash('sha256')
    .update(request.body ?? '')
    .digest('base64');
  return { ...request, headers: { ...request.headers, 'content-digest': `sha-256=:${digest}:` } };
}

/** Signed by `web-bot-auth`: @authority, plus signature-agent when the header is there (string form). */
export async function signWithWebBotAuth(
  key: AgentKey,
  request: Unsigned,
  window: { created: Date; expires: Date; nonce?: string },
  components?: string[],
): Promise<Record<string, string>> {
  const signer = await Ed25519Signer.fromJWK(key.privateJwk);
  const message = new Request(request.url, { method: request.method, headers: request.headers });
  const signed = await signatureHeaders(message, signer, {
    created: window.created,
    expires: window.expires,
    ...(window.nonce !== undefined && { nonce: window.nonce }),
    ...(components !== undefined && { components }),
  });
  return { ...request.headers, signature: signed.Signature, 'signature-input': signed['Signature-Input'] };
}

/** Signed by `http-message-signatures` with any components (`fields`: `@authority`, `signature-agent;key="agent1"`) and parameters. */
export async function signWithHttpMessageSignatures(
  key: AgentKey,
  request: Unsigned,
  options: {
    fields: string[];
    /** Parameter names in order; `keyid` and `alg` come from the key unless `values` names them. */
    params: string[];
    values: Record<string, string | Date>;
    label?: string;
  },
): Promise<Record<string, string>> {
  const signingKey = createSigner(createPrivateKey({ key: key.privateJwk, format: 'jwk' }), 'ed25519', key.keyId);
  const signed = await httpbis.signMessage(
    {
      key: signingKey,
      name: options.label ?? 'sig1',
      fields: options.fields,
      params: options.params,
      paramValues: options.values,
    },
    { method: request.method, url: request.url, headers: { ...request.headers } },
  );
  return Object.fromEntries(
    Object.entries(signed.headers).map(([name, value]) => [
      name.toLowerCase(),
      Array.isArray(value) ? value.join(', ') : value,
    ]),
  );
}
