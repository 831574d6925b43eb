/**
 * The shipped function takes a random UUID as the Idempotency-Key: issue 44's, which the guard
 * once refused as a payment card (422), submits and replays, as the workspace's retries send it.
 * tests/unit/sensitive-data-technical.test.ts holds the guard to a seeded sample of such keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import handler from '../../netlify/functions/proposal.mts';
import { ISSUE_44_UUID } from '../../scripts/bench/technical-values.ts';
import { EXAMPLE_REQUESTS } from '../../src/contract/contract.ts';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';

const API = 'http://127.0.0.1/api/proposal';

const post = (body: unknown, key: string) =>
  handler(
    new Request(API, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    }),
  );

let blobs: TestBlobs;
beforeAll(async () => {
  blobs = await startBlobs();
});
afterAll(async () => blobs.stop());

describe('a UUID as the Idempotency-Key', () => {
  it("submits with issue 44's UUID, and the retry with the same key is the stored request's replay", async () => {
    const first = await post(EXAMPLE_REQUESTS.submit, ISSUE_44_UUID);
    expect(first.status).toBe(201);
    const again = await post(EXAMPLE_REQUESTS.submit, ISSUE_44_UUID);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('submits with its upper-case spelling too, a key of its own', async () => {
    const res = await post(EXAMPLE_REQUESTS.submit, ISSUE_44_UUID.toUpperCase());
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
  });
});
