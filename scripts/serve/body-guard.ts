/**
 * Reads a request body completely, within bounds, before anything is forwarded: a body larger
 * than the platform accepts, one that stalls, one that takes too long or one whose client goes
 * away never reaches `netlify serve`. netlify-cli 27 awaits the body in its request listener
 * (utils/proxy.js, `onRequest`: createStreamPromise with a 6 MB limit and a 30 s timeout) and
 * lets the rejection escape as an unhandled rejection, which ends the whole process.
 */
import type { IncomingMessage } from 'node:http';

/** Netlify's limit on the request body of a synchronous function. */
export const PLATFORM_MAX_BODY_BYTES = 6 * 1024 * 1024;
/** Silence that ends a body: a client that stopped sending. */
export const BODY_IDLE_TIMEOUT_MS = 10_000;
/** Time a whole body may take: below netlify-cli's own 30 s. */
export const BODY_TOTAL_TIMEOUT_MS = 20_000;

export type BodyOutcome = { ok: true; body: Buffer } | { ok: false; reason: 'too-large' | 'timeout' | 'aborted' };

/**
 * An oversized body is still read, and thrown away, up to this many times the limit within the
 * same time limits, so the client that is still sending reads the 413, not a reset connection.
 */
const DISCARD_FACTOR = 8;

export interface BodyLimits {
  maxBytes: number;
  idleMs: number;
  totalMs: number;
}

export const DEFAULT_LIMITS: BodyLimits = {
  maxBytes: PLATFORM_MAX_BODY_BYTES,
  idleMs: BODY_IDLE_TIMEOUT_MS,
  totalMs: BODY_TOTAL_TIMEOUT_MS,
};

export function readBoundedBody(req: IncomingMessage, limits: BodyLimits = DEFAULT_LIMITS): Promise<BodyOutcome> {
  const declared = Number(req.headers['content-length']);
  const discardLimit = limits.maxBytes * DISCARD_FACTOR;
  if (Number.isFinite(declared) && declared > discardLimit) return Promise.resolve({ ok: false, reason: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (outcome: BodyOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(total);
      clearTimeout(idle);
      req.off('data', onData);
      if (!outcome.ok) req.pause();
      resolve(outcome);
    };
    const total = setTimeout(() => finish({ ok: false, reason: 'timeout' }), limits.totalMs);
    let idle = setTimeout(() => finish({ ok: false, reason: 'timeout' }), limits.idleMs);
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > discardLimit) return finish({ ok: false, reason: 'too-large' });
      if (size <= limits.maxBytes) chunks.push(chunk);
      clearTimeout(idle);
      idle = setTimeout(() => finish({ ok: false, reason: 'timeout' }), limits.idleMs);
    };
    req.on('data', onData);
    req.once('end', () =>
      finish(size > limits.maxBytes ? { ok: false, reason: 'too-large' } : { ok: true, body: Buffer.concat(chunks) }),
    );
    req.once('aborted', () => finish({ ok: false, reason: 'aborted' }));
    req.once('error', () => finish({ ok: false, reason: 'aborted' }));
    req.once('close', () => {
      if (!req.complete) finish({ ok: false, reason: 'aborted' });
    });
  });
}
