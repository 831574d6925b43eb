/**
 * A small HTTP proxy on 127.0.0.1 between the code and a real local Blobs server that fails on
 * chosen operations: it answers 5xx or 429 itself, hangs, drops the connection before or after
 * the write reached the server, or strips the ETag from a success. Everything else passes.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One Blobs request as the proxy sees it. */
export interface BlobsOperation {
  method: string;
  /** The blob key (empty for a listing). */
  key: string;
  /** `new`: If-None-Match: *; `match`: If-Match; `none`: unconditional. */
  condition: 'new' | 'match' | 'none';
}

export type Fault =
  | { kind: 'status'; status: number; headers?: Record<string, string> }
  | { kind: 'hang' }
  /** The connection closes before the request reaches the server. */
  | { kind: 'drop' }
  /** The server handles the request (a write lands), then the connection closes unanswered. */
  | { kind: 'drop-after' }
  /** The server's answer, without its ETag. */
  | { kind: 'no-etag' };

export interface FaultRule {
  match: (op: BlobsOperation) => boolean;
  fault: Fault;
  /** How many matching requests fail; every one when absent. */
  times?: number;
}

export interface BlobsFaultProxy {
  url: string;
  /** Every request seen, with the fault applied to it, if any. */
  seen: Array<BlobsOperation & { fault?: Fault['kind'] }>;
  /** Adds a rule; the first rule that matches (and has times left) applies. */
  inject(rule: FaultRule): void;
  /** Removes every rule: the store heals. */
  heal(): void;
  stop(): Promise<void>;
}

/** Matchers for the operations of the proposals store. */
export const on = {
  /** Creating the Idempotency-Key's pointer (claiming a key). */
  claim: (op: BlobsOperation) => op.method === 'PUT' && op.key.startsWith('keys/') && op.condition === 'new',
  /** Storing a new request. */
  recordCreate: (op: BlobsOperation) => op.method === 'PUT' && op.key.startsWith('requests/') && op.condition === 'new',
  /** A change of a stored request (its state, its claim taken or given up). */
  recordUpdate: (op: BlobsOperation) =>
    op.method === 'PUT' && op.key.startsWith('requests/') && op.condition === 'match',
  /** Writing or deleting an entry of the due listing (`due/<time>/<kind>/<id>`). */
  dueWrite: (op: BlobsOperation) => op.key.startsWith('due/') && (op.method === 'PUT' || op.method === 'DELETE'),
  /** Every request. */
  any: () => true,
};

export async function startBlobsFaultProxy(target: string): Promise<BlobsFaultProxy> {
  const rules: Array<FaultRule & { left: number }> = [];
  const seen: BlobsFaultProxy['seen'] = [];
  const sockets = new Set<Socket>();
  const upstream = new URL(target);

  const server = createServer((req, res) => {
    const op = operationOf(req);
    const rule = rules.find((r) => r.left > 0 && r.match(op));
    if (rule) rule.left--;
    seen.push({ ...op, ...(rule && { fault: rule.fault.kind }) });
    const fault = rule?.fault;
    if (fault?.kind === 'hang') return;
    if (fault?.kind === 'drop') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'status') {
      req.resume();
      res.writeHead(fault.status, fault.headers);
      res.end();
      return;
    }
    forward(req, res, upstream, fault);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    inject: (rule) => rules.push({ ...rule, left: rule.times ?? Number.POSITIVE_INFINITY }),
    heal: () => {
      rules.length = 0;
    },
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function forward(req: IncomingMessage, res: ServerResponse, upstream: URL, fault: Fault | undefined): void {
  const out = request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      if (fault?.kind === 'drop-after') {
        answer.resume();
        answer.on('end', () => req.socket.destroy());
        return;
      }
      const headers = { ...answer.headers };
      if (fault?.kind === 'no-etag') delete headers.etag;
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
    },
  );
  out.on('error', () => req.socket.destroy());
  req.pipe(out);
}

/** `/{site}/{store}/{key...}` as the Blobs client addresses the edge (local) server. */
function operationOf(req: IncomingMessage): BlobsOperation {
  const path = new URL(req.url ?? '/', 'http://proxy').pathname;
  const key = decodeURIComponent(path.split('/').slice(3).join('/'));
  const condition = req.headers['if-none-match'] === '*' ? 'new' : req.headers['if-match'] ? 'match' : 'none';
  return { method: req.method ?? '', key, condition };
}
