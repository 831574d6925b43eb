/**
 * The Web Bot Auth profile of HTTP Message Signatures (RFC 9421) as this site checks it, and every
 * number the check uses: one home, read by the verifier, its tests, the bench and the docs.
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
  /** Nonces remembered per instance (each until its signature expires); past this the oldest go first. */
  maxRememberedNonces: 10_000,
} as const;

/**
 * Set by `npm start` and `npm run dev` (scripts/serve.ts, scripts/dev.ts): a Signature-Agent on
 * loopback (`http://127.0.0.1:<port>`, `http://[::1]:<port>`, `http://localhost:<port>`) is fetched
 * over plain HTTP, so any signer can be tried locally. Never set on a deploy: there only HTTPS.
 */
export const LOOPBACK_DIRECTORY_ENV = 'AGENT_DIRECTORY_LOOPBACK_HTTP';
