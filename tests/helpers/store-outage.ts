/**
 * The shipped function (netlify/functions/proposal.mts) in-process behind a Blobs fault proxy, with
 * a webhook CRM and an SMTP server on loopback: the parts of the store-outage tests in
 * tests/built/store-faults.test.ts that send simultaneous submits through the function's default
 * export. Registers its hooks where it is called; each test gets a site of its own behind the proxy.
 */
import { randomUUID } from 'node:crypto';
import { setEnvironmentContext } from '@netlify/blobs';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { STORE_RETRY_AFTER_SECONDS } from '../../src/contract/idempotency-rules.ts';
import { startBlobs, type TestBlobs } from './blobs.ts';
import { on, startBlobsFaultProxy, type BlobsFaultProxy } from './blobs-fault-proxy.ts';
import { startCrmServer, type TestCrmServer } from './crm-server.ts';
import { loopbackDeliveryEnv } from './loopback-parts.ts';
import { apiPost, restoreEnv, shippedFunction, type ShippedFunction } from './shipped-function.ts';
import { mailsTo, startSmtp, type TestSmtp } from './smtp.ts';
import { submitRequest } from './submit-fixtures.ts';

export interface StoreOutage {
  fn: ShippedFunction;
  proxy: BlobsFaultProxy;
  crm: TestCrmServer;
  smtp: TestSmtp;
  /** The submit's sender, whose confirmations `confirmations()` counts. */
  confirmations(): number;
  /** One submit of the example request with `key`, through the function's default export. */
  submit(key: string): Promise<Response>;
  /** The Retry-After a store-unavailable answer carries. */
  retryAfter: string;
  /** Matchers of the store's operations (tests/helpers/blobs-fault-proxy.ts). */
  on: typeof on;
  newKey: () => string;
}

export function useStoreOutage(): StoreOutage {
  const parts = { retryAfter: String(STORE_RETRY_AFTER_SECONDS), on, newKey: randomUUID } as StoreOutage;
  let blobs: TestBlobs;
  let env: Record<string, string>;
  const sender = `outage-${randomUUID()}@example.com`;
  beforeAll(async () => {
    [blobs, parts.crm, parts.smtp] = await Promise.all([startBlobs(), startCrmServer(), startSmtp()]);
    parts.proxy = await startBlobsFaultProxy(blobs.url);
    env = loopbackDeliveryEnv(parts.crm, parts.smtp);
    parts.fn = await shippedFunction(env);
  });
  afterAll(async () => {
    restoreEnv(env);
    await Promise.all([parts.proxy?.stop(), parts.crm?.stop(), parts.smtp?.stop()]);
    await blobs?.stop();
  });
  beforeEach(() => {
    // A site of its own per test: the store starts empty, and every client goes through the proxy.
    const siteID = `outage-${randomUUID()}`;
    setEnvironmentContext({ siteID, token: blobs.token, edgeURL: parts.proxy.url, uncachedEdgeURL: parts.proxy.url });
    parts.proxy.heal();
    parts.proxy.seen.length = 0;
    parts.crm.requests.length = 0;
    parts.smtp.messages.length = 0;
  });
  parts.confirmations = () => mailsTo(parts.smtp.messages, sender).length;
  parts.submit = (key) =>
    parts.fn.handle(apiPost({ ...submitRequest({ email: sender }), role: undefined }, { 'idempotency-key': key }));
  return parts;
}
