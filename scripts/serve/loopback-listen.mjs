// @ts-check
/**
 * Loaded with NODE_OPTIONS=--import into `netlify serve` and `netlify dev` (and every Node process
 * they start) by `npm start` and `npm run dev`: a server that listens without naming an address
 * listens on LISTEN_HOST (loopback unless HOST says otherwise) instead of every interface.
 *
 * Why a preload: netlify-cli 27 has no flag, variable or setting for the address of its inner
 * servers. Its proxy (`utils/proxy.js`, `primaryServer.listen({ port })`), its functions server
 * (`lib/functions/server.js`, `server.listen(functionsPort)`) and the local Blobs server it starts
 * (`@netlify/dev-utils`, `server.listen(port)`) all pass a port only, which Node binds to every
 * interface. A listener that names its address (the function workers' `localhost`, fastify's
 * static server) is left as it is. No dependency is patched.
 */
import net from 'node:net';

const host = process.env['LISTEN_HOST'];
if (host) {
  // Read as a descriptor: the method is called below with the server as `this`.
  const listen = /** @type {typeof net.Server.prototype.listen} */ (
    Object.getOwnPropertyDescriptors(net.Server.prototype).listen.value
  );
  /** @param {unknown[]} args */
  const withHost = (args) => {
    const [first, second] = args;
    // listen(options[, cb]): a TCP listen without a host (a path, handle or fd is no TCP port).
    if (typeof first === 'object' && first !== null) {
      const options = /** @type {Record<string, unknown>} */ (first);
      const tcp = !('path' in options) && !('fd' in options) && !('handle' in options) && !('_handle' in options);
      return tcp && options['host'] === undefined ? [{ ...options, host }, ...args.slice(1)] : args;
    }
    // listen(port[, host][, backlog][, cb]): a host is the string after the port.
    if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first)))
      return typeof second === 'string' ? args : [first, host, ...args.slice(1)];
    // listen() or listen(cb): any port, every interface.
    if (first === undefined || typeof first === 'function')
      return [{ port: 0, host }, ...args.filter((a) => a !== undefined)];
    return args;
  };
  net.Server.prototype.listen = /** @type {typeof listen} */ (
    function listenOnHost(/** @type {unknown[]} */ ...args) {
      return listen.apply(this, /** @type {Parameters<typeof listen>} */ (withHost(args)));
    }
  );
}
