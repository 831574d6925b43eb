/**
 * What `npm start` and `npm run dev` run, as processes: nothing listens beyond loopback, and no POST
 * to any port npm start listens on ends it. What the function decides about who is asking (limits
 * that count people, not spellings; hostile names reaching sales as text; cross-site browser posts)
 * is tested in-process: tests/built/people-not-spellings.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type RunningSite } from '../../scripts/local-site/start-site.ts';
import { submitWithRetries } from '../helpers/submit-client.ts';
import { submitRequest } from '../helpers/submit-fixtures.ts';
import { isLoopback, listenersOf, processTree } from '../helpers/listeners.ts';
import { startDev } from '../helpers/dev-server.ts';

let site: RunningSite;

beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site?.stop();
});

/** One submit as curl sends it, retried as the contract says (tests/helpers/submit-client.ts). */
async function submit(email: string) {
  const payload = JSON.stringify({
    ...submitRequest({ email }),
    role: undefined,
    form_started_at: undefined,
    website: undefined,
  });
  const { http } = await submitWithRetries(site.url, payload);
  return { http };
}

describe('where npm start listens', () => {
  it('every socket of its process tree is bound to loopback', () => {
    const listeners = listenersOf(processTree(site.pid));
    // The front server, netlify serve's proxy, functions, static and Blobs servers at least.
    expect(listeners.length).toBeGreaterThanOrEqual(4);
    expect(listeners.filter((l) => !isLoopback(l.address))).toEqual([]);
    console.info(`npm start listens on: ${listeners.map((l) => `${l.address}:${l.port}`).join(', ')}`);
  });
});

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

describe('no single request ends npm start', () => {
  it('a 7 MB POST to each port it listens on, with a length and chunked, leaves it serving', async () => {
    const ports = [...new Set(listenersOf(processTree(site.pid)).map((l) => l.port))];
    for (const port of ports) {
      await postSevenMegabytes(port, false);
      await postSevenMegabytes(port, true);
    }
    expect((await fetch(`${site.url}/llms.txt`)).status).toBe(200);
    // The CLI itself (and the function behind it) still answers.
    const answer = await submit(`after-${randomUUID()}@example.com`);
    expect(answer.http).toBe(201);
    console.info(`7 MB POSTs (declared and chunked) to ${ports.length} ports; npm start still serving`);
  }, 300_000);
});

describe('where npm run dev listens', () => {
  it('every socket of its process tree is bound to loopback', async () => {
    const dev = await startDev({});
    try {
      const listeners = listenersOf(processTree(dev.pid));
      expect(listeners.length).toBeGreaterThanOrEqual(3);
      expect(listeners.filter((l) => !isLoopback(l.address))).toEqual([]);
      console.info(`npm run dev listens on: ${listeners.map((l) => `${l.address}:${l.port}`).join(', ')}`);
    } finally {
      await dev.stop();
    }
  }, 300_000);
});
