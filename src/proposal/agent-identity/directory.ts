/**
 * Operators' key directories (`<operator>/.well-known/http-message-signatures-directory`, a JWKS of
 * Ed25519 keys), kept as long as their Cache-Control says (capped); a key is found by its RFC 7638
 * thumbprint, computed, never read. The operator URL comes from the request, so the fetch reaches only
 * the public internet: HTTPS on port 443 of a host name (no IP literal) whose every address is public,
 * checked in the connection's own lookup so no second resolution can differ; no redirects; a bounded
 * body. Plain HTTP to loopback only where the configuration allows it (npm start, npm run dev, tests).
 */
import { hash } from 'node:crypto';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { AGENT_IDENTITY_LIMITS as LIMITS, KEY_DIRECTORY_PATH } from '../../contract/web-bot-auth.ts';
import { LOOPBACK_HOSTS } from '../config.ts';

/** `refused`: the operator's host has an address no operator's directory is at (the profile's rule, like an IP literal). */
export type KeyLookup =
  | { kind: 'key'; key: CryptoKey }
  | { kind: 'unknown-key' }
  | { kind: 'unavailable'; reason: string }
  | { kind: 'refused'; reason: string };

type Keys = ReadonlyMap<string, CryptoKey>;
type Read = { keys: Keys; maxAgeS: number } | { failed: string } | { refused: string };

/** The code of the lookup's refusal, so the connection's error tells it from a host that is down. */
const NOT_PUBLIC_CODE = 'ERR_NOT_PUBLIC_ADDRESS';

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');
/** What no operator's directory is at: loopback, private, link-local, unique-local, shared, reserved and multicast ranges. */
const NOT_PUBLIC = new BlockList();
for (const subnet of [
  ...'0.0.0.0/8 10.0.0.0/8 100.64.0.0/10 127.0.0.0/8 169.254.0.0/16 172.16.0.0/12 192.0.0.0/24'.split(' '),
  ...'192.0.2.0/24 192.168.0.0/16 198.18.0.0/15 198.51.100.0/24 203.0.113.0/24 224.0.0.0/3'.split(' '),
  // No `::ffff:0:0/96`: BlockList matches IPv4 addresses against IPv4-mapped subnets (and back), so that
  // rule would refuse every IPv4 address; a mapped address meets the IPv4 rules above instead.
  ...'::/127 64:ff9b::/96 100::/64 2001:db8::/32 fc00::/7 fe80::/10 ff00::/8'.split(' '),
]) {
  const [net = '', bits] = subnet.split('/');
  NOT_PUBLIC.addSubnet(net, Number(bits), family(net));
}
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

export const isPublicAddress = (address: string) => isIP(address) !== 0 && !NOT_PUBLIC.check(address, family(address));

/** The operator's origin when it may be fetched; a fixed phrase when it may not. */
export function operatorOrigin(value: string, loopbackHttp: boolean): { origin: string } | { refused: string } {
  const url = URL.parse(value);
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    return { refused: 'Signature-Agent is not an http(s) URL' };
  if (url.username !== '' || url.password !== '') return { refused: 'Signature-Agent carries credentials' };
  if (loopbackHttp && LOOPBACK_HOSTS.has(url.hostname)) return { origin: url.origin };
  if (url.protocol === 'http:') return { refused: 'Signature-Agent is not an https URL' };
  if (isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0)
    return { refused: 'Signature-Agent names an IP address, not a host name' };
  if (url.port !== '') return { refused: 'Signature-Agent names a port other than 443' };
  return { origin: url.origin };
}

/** The connection's own lookup: every address the name resolves to must be public (loopback where allowed). */
function guardedLookup(loopbackHttp: boolean) {
  return (
    host: string,
    options: { all?: boolean },
    done: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) =>
    dnsLookup(host, { all: true }, (error, addresses) => {
      const allowed = (a: LookupAddress) =>
        isPublicAddress(a.address) || (loopbackHttp && LOOPBACK.check(a.address, family(a.address)));
      if (error || addresses.length === 0) return done(error ?? new Error('no address'), []);
      if (!addresses.every(allowed))
        return done(Object.assign(new Error('not a public address'), { code: NOT_PUBLIC_CODE }), []);
      if (options.all) done(null, addresses);
      else done(null, addresses[0]!.address, addresses[0]!.family);
    });
}

/** RFC 7638 thumbprint of an Ed25519 OKP key. */
export const okpThumbprint = (x: string) => hash('sha256', `{"crv":"Ed25519","kty":"OKP","x":"${x}"}`, 'base64url');

async function keysOf(document: unknown): Promise<Keys | null> {
  const list = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(list)) return null;
  const keys = new Map<string, CryptoKey>();
  for (const jwk of list.slice(0, 32)) {
    const { kty, crv, x } = (jwk ?? {}) as Record<string, unknown>;
    // Other key types are allowed in a directory; this profile verifies Ed25519 only.
    if (kty !== 'OKP' || crv !== 'Ed25519' || typeof x !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(x)) continue;
    try {
      const key = await crypto.subtle.importKey('jwk', { kty, crv, x }, { name: 'Ed25519' }, false, ['verify']);
      keys.set(okpThumbprint(x), key);
    } catch {
      // Not a point on the curve: left out, as a key nobody can sign with.
    }
  }
  return keys;
}

/** Seconds a directory may be kept: its max-age, capped; 0 for no-store or no-cache. */
export function cacheSeconds(cacheControl: string | null): number {
  const directives = (cacheControl ?? '').split(',').map((d) => d.trim().toLowerCase());
  if (directives.some((d) => d === 'no-store' || d === 'no-cache')) return 0;
  const maxAge = directives.map((d) => /^max-age=(\d{1,10})$/.exec(d)?.[1]).find((v) => v !== undefined);
  return maxAge === undefined ? LIMITS.defaultCacheSeconds : Math.min(Number(maxAge), LIMITS.maxCacheSeconds);
}

/** One GET within the timeout, body included, and bounded; never rejects. */
async function download(origin: string, loopbackHttp: boolean, timeoutMs: number): Promise<Read> {
  const url = new URL(KEY_DIRECTORY_PATH, origin);
  const signal = AbortSignal.timeout(timeoutMs);
  const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
    headers: { accept: 'application/http-message-signatures-directory+json, application/json;q=0.9' },
    lookup: guardedLookup(loopbackHttp) as never,
    signal,
  });
  try {
    const res = await new Promise<IncomingMessage>((resolve, reject) =>
      req.on('response', resolve).on('error', reject).end(),
    );
    if (res.statusCode !== 200) return { failed: `the key directory answered HTTP ${res.statusCode}` };
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > LIMITS.directoryMaxBytes) return { failed: 'the key directory is too large' };
      chunks.push(chunk);
    }
    let document: unknown;
    try {
      document = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return { failed: 'the key directory is not JSON' };
    }
    const keys = await keysOf(document);
    if (keys === null) return { failed: 'the key directory has no keys list' };
    return { keys, maxAgeS: cacheSeconds(res.headers['cache-control'] ?? null) };
  } catch (error) {
    if ((error as { code?: unknown }).code === NOT_PUBLIC_CODE)
      return { refused: 'Signature-Agent names a host whose addresses are not all public' };
    return {
      failed: signal.aborted ? 'the key directory did not answer in time' : 'the key directory could not be reached',
    };
  } finally {
    req.destroy();
  }
}

/** The directories of one instance: one fetch per operator at a time, kept per their Cache-Control. */
export class KeyDirectories {
  readonly #entries = new Map<string, { until: number; read: Promise<Read> }>();

  readonly options: { now: () => number; timeoutMs?: number; loopbackHttp: boolean };
  constructor(options: KeyDirectories['options']) {
    this.options = options;
  }

  async key(origin: string, keyId: string): Promise<KeyLookup> {
    const now = this.options.now();
    let entry = this.#entries.get(origin);
    if (entry === undefined || entry.until <= now) {
      const { loopbackHttp, timeoutMs = LIMITS.directoryTimeoutMs } = this.options;
      const fresh = { until: Infinity, read: download(origin, loopbackHttp, timeoutMs) };
      void fresh.read.then((read) => {
        fresh.until = now + ('keys' in read ? read.maxAgeS : LIMITS.failureCacheSeconds) * 1000;
      });
      this.#entries.delete(origin);
      this.#entries.set(origin, (entry = fresh));
      while (this.#entries.size > LIMITS.maxCachedOperators) this.#entries.delete(this.#entries.keys().next().value!);
    }
    const read = await entry.read;
    if ('failed' in read) return { kind: 'unavailable', reason: read.failed };
    if ('refused' in read) return { kind: 'refused', reason: read.refused };
    const key = read.keys.get(keyId);
    return key === undefined ? { kind: 'unknown-key' } : { kind: 'key', key };
  }
}
