/**
 * A store outage through `npm start`. netlify-cli offers no way to point its functions at another
 * Blobs server (it starts its own on a random port: dist/lib/blobs/blobs.js), so the test loads
 * tests/helpers/blobs-proxy-preload.mjs into the processes of `npm start`: every Blobs server
 * they start answers through a fault proxy the test controls. While the store refuses to claim
 * keys, submits are answered 503 store-unavailable and nothing reaches the CRM or the mailbox;
 * once it heals, the retry with the same key is one request, delivered and confirmed once.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type RunningSite } from '../../scripts/local-site/start-site.ts';
import { STORE_RETRY_AFTER_SECONDS } from '../../src/contract/idempotency-rules.ts';
import { on, startBlobsFaultProxy, type BlobsFaultProxy, type FaultRule } from '../helpers/blobs-fault-proxy.ts';
import { startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { mailsTo, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { submitRequest } from '../helpers/submit-fixtures.ts';
import { loopbackDeliveryEnv } from '../helpers/loopback-parts.ts';

const PRELOAD = fileURLToPath(new URL('../helpers/blobs-proxy-preload.mjs', import.meta.url));
const SENDER = submitRequest().email;

let crm: TestCrmServer;
let smtp: TestSmtp;
let site: RunningSite;
let control: Server;
const proxies: BlobsFaultProxy[] = [];

/** Applies to every proxy, those started later included. */
function inject(rule: FaultRule): void {
  for (const proxy of proxies) proxy.inject(rule);
}
function heal(): void {
  for (const proxy of proxies) proxy.heal();
}

beforeAll(async () => {
  [crm, smtp] = await Promise.all([startCrmServer(), startSmtp()]);
  control = createServer((req, res) => {
    const target = new URL(req.url ?? '/', 'http://control').searchParams.get('target') ?? '';
    void startBlobsFaultProxy(target).then((proxy) => {
      proxies.push(proxy);
      res.end(JSON.stringify({ port: Number(new URL(proxy.url).port) }));
    });
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  const { port } = control.address() as AddressInfo;
  site = await startSite({
    NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import ${PRELOAD}`.trim(),
    BLOBS_FAULT_CONTROL_URL: `http://127.0.0.1:${port}/proxy`,
    ...loopbackDeliveryEnv(crm, smtp),
  });
});
afterAll(async () => {
  await site?.stop();
  await Promise.all([crm?.stop(), smtp?.stop(), ...proxies.map((p) => p.stop())]);
  await new Promise((resolve) => control?.close(resolve));
});

const submit = (key: string) =>
  fetch(`${site.url}/api/proposal`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify({ ...submitRequest(), role: undefined }),
  });

describe('npm start while the store fails', () => {
  it('answers 503 store-unavailable with nothing sent, then one request once it heals', async () => {
    expect(proxies.length).toBeGreaterThan(0);
    inject({ match: on.claim, fault: { kind: 'status', status: 503 } });
    const key = randomUUID();
    const during = await Promise.all(Array.from({ length: 4 }, () => submit(key)));
    for (const res of during) {
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe(String(STORE_RETRY_AFTER_SECONDS));
      expect(((await res.json()) as { type: string }).type).toMatch(/#problem-store-unavailable$/);
    }
    // The function's own store calls met the fault: it runs behind the proxy.
    expect(proxies.flatMap((p) => p.seen).filter((op) => op.fault !== undefined).length).toBeGreaterThanOrEqual(4);
    expect(crm.requests).toHaveLength(0);
    expect(mailsTo(smtp.messages, SENDER)).toHaveLength(0);

    heal();
    const retry = await submit(key);
    expect(retry.status).toBe(201);
    const { status, request_id: id } = (await retry.json()) as { status: string; request_id: string };
    expect(status).toBe('received');
    expect(crm.requests.filter((r) => r.path === '/hook').map((r) => r.headers['webhook-id'])).toEqual([id]);
    await expect.poll(() => mailsTo(smtp.messages, SENDER).length).toBe(1);
  });
});
