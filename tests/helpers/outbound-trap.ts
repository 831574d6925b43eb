/**
 * A proxy on 127.0.0.1 that refuses every request and records where it was going. A child process
 * started with `trap.env` (Node's NODE_USE_ENV_PROXY) sends all its fetches here, so a script that
 * would reach a deployed site (api.netlify.com) stays on loopback and the test sees that it tried.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OutboundTrap {
  /** Targets asked for, e.g. `api.netlify.com:443` (a CONNECT) or a plain-http URL. */
  targets: string[];
  /** The variables that route a Node child's fetch through the trap. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startOutboundTrap(): Promise<OutboundTrap> {
  const targets: string[] = [];
  const server = createServer((req, res) => {
    targets.push(req.url ?? '');
    res.writeHead(502).end();
  });
  server.on('connect', (req, socket) => {
    targets.push(req.url ?? '');
    socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    targets,
    env: { NODE_USE_ENV_PROXY: '1', HTTPS_PROXY: url, HTTP_PROXY: url, NO_PROXY: '' },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
