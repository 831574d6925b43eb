/**
 * A CRM stand-in on 127.0.0.1 (node:http): records every request and answers as each test
 * tells it: a status, 429 with Retry-After, a hang that never answers, or a dropped socket.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type CrmBehaviour =
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string>; delayMs?: number }
  | { kind: 'hang' }
  | { kind: 'drop' };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface TestCrmServer {
  url: string;
  requests: RecordedRequest[];
  /** Answer every following request this way (default: 200 with a small JSON body). */
  behave(behaviour: CrmBehaviour): void;
  stop(): Promise<void>;
}

export const OK: CrmBehaviour = { kind: 'status', status: 200, body: '{"ok":true}' };

export async function startCrmServer(): Promise<TestCrmServer> {
  const requests: RecordedRequest[] = [];
  let behaviour: CrmBehaviour = OK;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const now = behaviour;
      if (now.kind === 'hang') return;
      if (now.kind === 'drop') {
        req.socket.destroy();
        return;
      }
      const answer = () => {
        res.writeHead(now.status, { 'content-type': 'application/json', ...now.headers });
        res.end(now.body ?? '');
      };
      if (now.delayMs === undefined) answer();
      else setTimeout(answer, now.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    behave: (next) => {
      behaviour = next;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        // Hanging requests keep sockets open; close them so the server can stop.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
