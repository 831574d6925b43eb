/**
 * Operators' key directories (`<operator>/.well-known/http-message-signatures-directory`, a JWKS
 * of Ed25519 keys), fetched with a short timeout and kept per operator as long as their
 * Cache-Control max-age says (capped); a key is found by its RFC 7638 thumbprint, the keyid Web Bot
 * Auth signatures carry. A `kid` member in the directory is not trusted: the thumbprint is computed.
 *
 * The operator URL comes from the request, so what is fetched is held tight: HTTPS (plain HTTP on
 * loopback only when running locally), a host name rather than an IP address, the fixed path, no
 * redirects, a bounded body. The cache lives in the instance's memory: a cold instance fetches again.
 */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { AGENT_IDENTITY_LIMITS, KEY_DIRECTORY_PATH } from './profile.ts';

export type KeyLookup =
  | { kind: 'key'; key: CryptoKey }
  | { kind: 'unknown-key' }
  /** The directory could not be read: `reason` is a fixed phrase. */
  | { kind: 'unavailable'; reason: string };

export interface DirectoryDeps {
  fetch: typeof fetch;
  /** Milliseconds since the epoch: cache ages are measured on it. */
  now: () => number;
  timeoutMs: number;
  /** Plain HTTP to loopback operators (npm start, npm run dev, tests); never on a deploy. */
  allowLoopbackHttp: boolean;
}

type Keys = ReadonlyMap<string, CryptoKey>;
type Read = { keys: Keys; maxAgeS: number } | { failed: string };
type Entry = { until: number; read: Promise<Read> };

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** The operator's origin when it may be fetched; a fixed phrase when it may not. */
export function operatorOrigin(value: string, allowLoopbackHttp: boolean): { origin: string } | { refused: string } {
  const url = URL.parse(value);
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    return { refused: 'Signature-Agent is not an http(s) URL' };
  }
  if (url.username !== '' || url.password !== '') return { refused: 'Signature-Agent carries credentials' };
  if (url.protocol === 'http:') {
    return allowLoopbackHttp && LOOPBACK.has(url.hostname)
      ? { origin: url.origin }
      : { refused: 'Signature-Agent is not an https URL' };
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !(allowLoopbackHttp && LOOPBACK.has(url.hostname))) {
    return { refused: 'Signature-Agent names an IP address, not a host name' };
  }
  return { origin: url.origin };
}

/** RFC 7638 thumbprint of an Ed25519 OKP key: SHA-256 over its required members in order, base64url. */
export function okpThumbprint(x: string): string {
  return createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${x}"}`).digest('base64url');
}

const ED25519_X = /^[A-Za-z0-9_-]{43}$/;

/** The Ed25519 keys of a directory document, by thumbprint; null when it is not a directory. */
async function keysOf(document: unknown): Promise<Keys | null> {
  if (typeof document !== 'object' || document === null) return null;
  const list = (document as { keys?: unknown }).keys;
  if (!Array.isArray(list)) return null;
  const keys = new Map<string, CryptoKey>();
  for (const jwk of list.slice(0, 32)) {
    if (typeof jwk !== 'object' || jwk === null) continue;
    const { kty, crv, x } = jwk as Record<string, unknown>;
    // Other key types (RSA-PSS) are allowed in a directory; this profile verifies Ed25519 only.
    if (kty !== 'OKP' || crv !== 'Ed25519' || typeof x !== 'string' || !ED25519_X.test(x)) continue;
    try {
      const key = await crypto.subtle.importKey('jwk', { kty, crv, x }, { name: 'Ed25519' }, false, ['verify']);
      keys.set(okpThumbprint(x), key);
    } catch {
      // Not a point on the curve: left out, as a key nobody can sign with.
    }
  }
  return keys;
}

/** Seconds a reply may be kept: its max-age, capped; 0 for no-store or no-cache. */
export function cacheSeconds(cacheControl: string | null): number {
  const { defaultCacheSeconds, maxCacheSeconds } = AGENT_IDENTITY_LIMITS;
  const directives = (cacheControl ?? '')
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  if (directives.some((d) => d === 'no-store' || d === 'no-cache')) return 0;
  const maxAge = directives.map((d) => /^max-age=(\d{1,10})$/.exec(d)?.[1]).find((v) => v !== undefined);
  return maxAge === undefined ? defaultCacheSeconds : Math.min(Number(maxAge), maxCacheSeconds);
}

async function readLimited(res: Response, limit: number): Promise<string | null> {
  if (res.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export class KeyDirectories {
  readonly #deps: DirectoryDeps;
  readonly #entries = new Map<string, Entry>();

  constructor(deps: DirectoryDeps) {
    this.#deps = deps;
  }

  /** The operator's key with this id; `origin` as operatorOrigin gave it. Never rejects. */
  async key(origin: string, keyId: string): Promise<KeyLookup> {
    const now = this.#deps.now();
    let entry = this.#entries.get(origin);
    if (entry === undefined || entry.until <= now) {
      entry = this.#fetchEntry(origin, now);
    }
    const read = await entry.read;
    if ('failed' in read) return { kind: 'unavailable', reason: read.failed };
    const key = read.keys.get(keyId);
    return key === undefined ? { kind: 'unknown-key' } : { kind: 'key', key };
  }

  #fetchEntry(origin: string, startedAt: number): Entry {
    const { failureCacheSeconds, maxCachedOperators } = AGENT_IDENTITY_LIMITS;
    // In flight, the entry serves every request for this operator: one fetch at a time.
    const entry: Entry = { until: Number.POSITIVE_INFINITY, read: this.#read(origin) };
    this.#entries.delete(origin);
    this.#entries.set(origin, entry);
    while (this.#entries.size > maxCachedOperators) this.#entries.delete(this.#entries.keys().next().value!);
    void entry.read.then((read) => {
      const seconds = 'failed' in read ? failureCacheSeconds : read.maxAgeS;
      entry.until = startedAt + seconds * 1000;
      if (seconds === 0 && this.#entries.get(origin) === entry) this.#entries.delete(origin);
    });
    return entry;
  }

  /** Bounded by the timeout even if a fetch ignores its abort signal: the reply never waits longer. */
  async #read(origin: string): Promise<Read> {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<Read>((resolve) => {
      timer = setTimeout(() => {
        abort.abort();
        resolve({ failed: 'the key directory did not answer in time' });
      }, this.#deps.timeoutMs);
    });
    try {
      return await Promise.race([this.#download(origin, abort.signal), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #download(origin: string, signal: AbortSignal): Promise<Read> {
    try {
      const res = await this.#deps.fetch(new URL(KEY_DIRECTORY_PATH, origin), {
        signal,
        redirect: 'error',
        headers: { accept: 'application/http-message-signatures-directory+json, application/json;q=0.9' },
      });
      if (res.status !== 200) {
        await res.body?.cancel().catch(() => undefined);
        return { failed: `the key directory answered HTTP ${res.status}` };
      }
      const text = await readLimited(res, AGENT_IDENTITY_LIMITS.directoryMaxBytes);
      if (text === null) return { failed: 'the key directory is too large' };
      let document: unknown;
      try {
        document = JSON.parse(text);
      } catch {
        return { failed: 'the key directory is not JSON' };
      }
      const keys = await keysOf(document);
      if (keys === null) return { failed: 'the key directory has no keys list' };
      return { keys, maxAgeS: cacheSeconds(res.headers.get('cache-control')) };
    } catch {
      return { failed: 'the key directory could not be reached' };
    }
  }
}
