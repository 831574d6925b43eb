/**
 * No single request can end the local server (`npm start`: netlify serve behind the body guard,
 * scripts/serve.ts): oversized, aborted, stalled, slow and fuzzed bodies, a Host it cannot parse, and
 * 7 MB POSTed to each port it listens on, every one of them on loopback only.
 * Each wait is for the event it needs (the server's answer, or its closing the connection), with a
 * generous bound. Simultaneous submits of one key are tested in-process, where they are many and
 * the store's faults are chosen: tests/unit/submit-flow.test.ts, submit-store-faults.test.ts,
 * submit-interleavings.test.ts and tests/built/store-faults.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type RunningSite } from '../../scripts/local-site/start-site.ts';
import { fuzzRequests } from '../helpers/fuzz-requests.ts';
import { isLoopback, listenersOf, processTree } from '../helpers/listeners.ts';
import { submitWithRetries } from '../helpers/submit-client.ts';
import { submitRequest } from '../helpers/submit-fixtures.ts';

/** Requests of tests/helpers/fuzz-requests.ts sent through the served stack (each starts a worker). */
const SERVED_FUZZ_RUNS = 40;
/** The most a wait here lasts when the server never does what it should: never the verdict on a busy machine. */
const BOUND_MS = 60_000;

/** Seven megabytes POSTed to a loopback port, with a declared length or chunked; what comes back does not matter. */
function postSevenMegabytes(port: number, chunked: boolean): Promise<void> {
  return new Promise((resolve) => {
    const body = Buffer.alloc(7 * 1024 * 1024, 'a');
    const req = request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/proposal',
      headers: { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': body.length }) },
      timeout: 8_000,
    });
    const done = () => resolve();
    req.once('response', (res) => {
      res.resume();
      res.once('end', done);
    });
    req.once('timeout', () => req.destroy());
    req.once('error', done);
    req.once('close', done);
    req.end(body);
  });
}

describe('no single request ends the local server', () => {
  let site: RunningSite;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(() => site?.stop());

  const port = () => Number(new URL(site.url).port);
  const alive = async () => (await fetch(`${site.url}/api/capabilities`)).status;

  /**
   * Sends raw bytes and resolves with what came back once the answer is complete (its headers and
   * Content-Length bytes of body) or the connection closed; `abort` ends it from this side once the
   * bytes are out. A silent server is cut off at BOUND_MS.
   */
  function raw(head: string, parts: (string | Buffer)[], options: { abort?: boolean; port?: number } = {}) {
    return new Promise<string>((resolve) => {
      const socket = connect(options.port ?? port(), '127.0.0.1');
      let reply = '';
      const done = () => {
        clearTimeout(bound);
        socket.destroy();
        resolve(reply);
      };
      const bound = setTimeout(done, BOUND_MS);
      socket.on('data', (d: Buffer) => {
        reply += d.toString();
        const end = reply.indexOf('\r\n\r\n');
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(reply.slice(0, end))?.[1];
        if (end >= 0 && length !== undefined && Buffer.byteLength(reply.slice(end + 4)) >= Number(length)) done();
      });
      socket.on('error', () => undefined);
      socket.on('close', done);
      socket.write(head);
      parts.forEach((part, i) => socket.write(part, () => options.abort && i === parts.length - 1 && done()));
    });
  }

  const head = (length: number) =>
    `POST /api/proposal HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  it('a body over 6 MB: 413, and the next request is served', async () => {
    const res = await fetch(`${site.url}/api/proposal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(7_000_000, 0x20),
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(await alive()).toBe(200);
  });

  it('a client that aborts mid-body: the next request is served', async () => {
    await raw(head(100_000), ['{"action":"guide","question":"'], { abort: true });
    expect(await alive()).toBe(200);
  });

  it(
    'a body that stalls: 408 once the guard gives up on it, and the next request is served',
    async () => {
      const reply = await raw(head(1_000), ['{"action":']);
      expect(reply).toMatch(/^HTTP\/1\.1 408/);
      expect(await alive()).toBe(200);
    },
    2 * BOUND_MS,
  );

  it(
    'a slow body that completes in time is answered by the function',
    async () => {
      const payload = JSON.stringify({
        action: 'guide',
        question: 'Move our data center to the cloud.',
        industry: 'retail',
        company_size: '51-200',
        primary_need: 'not-sure',
      });
      const parts = [...payload].reduce<string[]>(
        (acc, ch, i) => (i % 20 === 0 ? [...acc, ch] : [...acc.slice(0, -1), `${acc.at(-1)}${ch}`]),
        [],
      );
      const reply = await new Promise<string>((resolve) => {
        const socket = connect(port(), '127.0.0.1');
        let text = '';
        socket.on('data', (d: Buffer) => (text += d.toString()));
        socket.on('end', () => resolve(text));
        socket.write(head(Buffer.byteLength(payload)));
        // The client is slow on purpose: a part every 100 ms, well within the guard's limits.
        let i = 0;
        const timer = setInterval(() => {
          if (i < parts.length) socket.write(parts[i++]!);
          else clearInterval(timer);
        }, 100);
        setTimeout(() => {
          socket.destroy();
          resolve(text);
        }, BOUND_MS);
      });
      expect(reply).toMatch(/^HTTP\/1\.1 200/);
    },
    2 * BOUND_MS,
  );

  // fetch will not send these: a port past 65535 made netlify-cli throw and exit, a user part got a
  // 500 whose body was a stack trace with the checkout's absolute paths.
  it('a Host (or target) it cannot parse: 400 with a short plain body on every port, and the server stays up', async () => {
    const ports = [...new Set(listenersOf(processTree(site.pid)).map((l) => l.port))];
    expect(ports).toContain(port());
    const unparseable = [
      ['localhost:99999', '/'],
      ['localhost:99999', '/api/proposal'],
      ['user@localhost', '/'],
      ['a@127.0.0.1:1', '/mcp'],
      ['local host', '/'],
      ['localhost', 'http://localhost:99999/'],
    ] as const;
    for (const listening of ports) {
      for (const [host, target] of unparseable) {
        const reply = await raw(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`, [], {
          port: listening,
        });
        // A function worker's port lives as long as one invocation: one gone by now answered nothing.
        if (reply === '' && !listenersOf(processTree(site.pid)).some((l) => l.port === listening)) continue;
        const [head = '', text = ''] = reply.split('\r\n\r\n');
        expect(head, `${host} ${target} on ${listening}`).toMatch(/^HTTP\/1\.1 400/);
        expect(head).toMatch(/content-type: text\/plain/i);
        expect(text.length).toBeLessThan(200);
        expect(text).not.toMatch(/\/(?:work|tmp|home|root)\/|node_modules|\bat /);
      }
    }
    expect(await alive()).toBe(200);
    // A Host that parses is served as before.
    const ok = await raw('GET /llms.txt HTTP/1.1\r\nHost: localhost:8888\r\nConnection: close\r\n\r\n', []);
    expect(ok).toMatch(/^HTTP\/1\.1 200/);
  }, 300_000);

  // The handler's answer to every one of 2,000 such requests is checked in-process
  // (tests/built/fuzz-requests.test.ts); here a fixed few go through the served stack (front
  // server, netlify serve, a worker per invocation), which must answer each and stay up.
  it(`${SERVED_FUZZ_RUNS} fuzzed requests through npm start: each answered, no 5xx, the server stays up`, async () => {
    const statuses: number[] = [];
    const requests = fuzzRequests(SERVED_FUZZ_RUNS);
    for (let i = 0; i < requests.length; i += 20) {
      const batch = requests.slice(i, i + 20).map(async ({ body: payload, headers }) => {
        const res = await fetch(`${site.url}/api/proposal`, { method: 'POST', headers, body: payload });
        await res.arrayBuffer();
        return res.status;
      });
      statuses.push(...(await Promise.all(batch)));
    }
    expect(statuses).toHaveLength(SERVED_FUZZ_RUNS);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(await alive()).toBe(200);
  }, 300_000);

  it('every socket of its process tree is bound to loopback', () => {
    const listeners = listenersOf(processTree(site.pid));
    // The front server, netlify serve's proxy, functions, static and Blobs servers at least.
    expect(listeners.length).toBeGreaterThanOrEqual(4);
    expect(listeners.filter((l) => !isLoopback(l.address))).toEqual([]);
    console.info(`npm start listens on: ${listeners.map((l) => `${l.address}:${l.port}`).join(', ')}`);
  });

  it('a 7 MB POST to each port it listens on, with a length and chunked, leaves it serving', async () => {
    const ports = [...new Set(listenersOf(processTree(site.pid)).map((l) => l.port))];
    for (const port of ports) {
      await postSevenMegabytes(port, false);
      await postSevenMegabytes(port, true);
    }
    expect((await fetch(`${site.url}/llms.txt`)).status).toBe(200);
    // The CLI itself (and the function behind it) still answers.
    const payload = JSON.stringify({
      ...submitRequest({ email: `after-${randomUUID()}@example.com` }),
      role: undefined,
      form_started_at: undefined,
      website: undefined,
    });
    expect((await submitWithRetries(site.url, payload)).http).toBe(201);
    console.info(`7 MB POSTs (declared and chunked) to ${ports.length} ports; npm start still serving`);
  }, 300_000);
});
