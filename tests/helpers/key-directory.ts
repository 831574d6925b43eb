/**
 * An agent operator's key directory stand-in on 127.0.0.1 (node:http): serves
 * /.well-known/http-message-signatures-directory as each test tells it (its keys with a
 * Cache-Control, a delay, an error status, a malformed body, a body that never ends, or a dropped
 * socket) and counts fetches, and every connection made to it at all.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KEY_DIRECTORY_PATH } from '../../src/contract/web-bot-auth.ts';

export type DirectoryBehaviour =
  | { kind: 'keys'; cacheControl?: string; delayMs?: number }
  | { kind: 'status'; status: number }
  | { kind: 'body'; body: string }
  | { kind: 'hang' }
  /** Headers and the start of a body, then nothing: the body never ends. */
  | { kind: 'trickle' }
  | { kind: 'drop' };

export interface KeyDirectoryServer {
  /** The operator URL its signers name in Signature-Agent: `http://127.0.0.1:<port>`. */
  origin: string;
  /** Fetches of the directory so far. */
  fetches: number;
  /** TCP connections accepted so far, whatever they asked for: 0 means nothing reached the server. */
  connections: number;
  /** Public JWKs served (the directory's `keys`). */
  keys: JsonWebKey[];
  behave(behaviour: DirectoryBehaviour): void;
  stop(): Promise<void>;
}

export async function startKeyDirectory(keys: JsonWebKey[]): Promise<KeyDirectoryServer> {
  let behaviour: DirectoryBehaviour = { kind: 'keys' };
  const state: KeyDirectoryServer = {
    origin: '',
    fetches: 0,
    connections: 0,
    keys,
    behave: (next) => {
      behaviour = next;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    if (req.url !== KEY_DIRECTORY_PATH) {
      res.writeHead(404).end();
      return;
    }
    state.fetches += 1;
    const now = behaviour;
    switch (now.kind) {
      case 'hang':
        return;
      case 'trickle':
        res.writeHead(200, { 'content-type': 'application/http-message-signatures-directory+json' });
        res.write('{"keys":[');
        return;
      case 'drop':
        req.socket.destroy();
        return;
      case 'status':
        res.writeHead(now.status, { 'content-type': 'text/plain' }).end('unavailable');
        return;
      case 'body':
        res.writeHead(200, { 'content-type': 'application/http-message-signatures-directory+json' }).end(now.body);
        return;
      case 'keys': {
        const answer = () =>
          res
            .writeHead(200, {
              'content-type': 'application/http-message-signatures-directory+json',
              ...(now.cacheControl !== undefined && { 'cache-control': now.cacheControl }),
            })
            .end(JSON.stringify({ keys: state.keys }));
        if (now.delayMs === undefined) answer();
        else setTimeout(answer, now.delayMs);
      }
    }
  });
  server.on('connection', () => {
    state.connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
