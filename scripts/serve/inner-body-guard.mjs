// @ts-check
/**
 * Loaded with NODE_OPTIONS=--import into netlify-cli by `npm start` and `npm run dev`; acts in the
 * CLI's own process only (its parent is the script that started it, INNER_GUARD_PARENT_PID).
 *
 * The front server (scripts/serve.ts, body-guard.ts) reads every body within bounds before it
 * reaches netlify-cli, but the CLI's inner ports answer POSTs too, on loopback. netlify-cli 27 reads
 * a body in its request listener (`utils/proxy.js`, onRequest → createStreamPromise) and leaves
 * the rejection of a body over 6 MB, or of a client gone mid-body, unhandled, which ends the CLI.
 * So in that process:
 * - a request whose Host (or target) does not parse is answered 400 before any listener
 *   (./host-header.mjs): netlify-cli exited on `Host: localhost:99999`;
 * - a request that declares a body over the platform's 6 MB is answered 413 before any listener;
 * - a rejection that is one of those body errors is logged and dropped; every other unhandled
 *   rejection still ends the process, as Node's default does.
 */
import { EventEmitter } from 'node:events';
import http from 'node:http';
import { parseableHost, refuseUnparseableHost } from './host-header.mjs';

const MAX_BODY_BYTES = 6 * 1024 * 1024;
/** createStreamPromise's own errors, and a socket the client dropped mid-body. */
const BODY_ERRORS = /^(Stream body too big|Request timed out waiting for body|aborted)$/;
const BODY_ERROR_CODES = new Set(['ECONNRESET', 'ERR_STREAM_PREMATURE_CLOSE']);

if (process.env['INNER_GUARD_PARENT_PID'] === String(process.ppid)) {
  // EventEmitter's, read as a descriptor: it is called below with the server as `this`.
  const emit = /** @type {typeof http.Server.prototype.emit} */ (
    Object.getOwnPropertyDescriptors(EventEmitter.prototype).emit.value
  );
  http.Server.prototype.emit = /** @type {typeof emit} */ (
    function guardedEmit(/** @type {string | symbol} */ event, /** @type {unknown[]} */ ...args) {
      if (event === 'request') {
        const [req, res] = /** @type {[http.IncomingMessage, http.ServerResponse]} */ (args);
        if (!parseableHost(req.headers.host, req.url)) {
          refuseUnparseableHost(res);
          return true;
        }
        if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
          res.writeHead(413, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
          res.end('The body is larger than the 6 MB a function accepts.\n');
          return true;
        }
      }
      return emit.call(this, event, ...args);
    }
  );
  process.on('unhandledRejection', (reason) => {
    const error = /** @type {{ message?: unknown, code?: unknown }} */ (reason ?? {});
    const ofABody =
      (typeof error.message === 'string' && BODY_ERRORS.test(error.message)) ||
      (typeof error.code === 'string' && BODY_ERROR_CODES.has(error.code));
    if (!ofABody) throw reason;
    console.error(`netlify-cli: a request body failed (${String(error.message)}); the request was dropped`);
  });
}
