/**
 * Any POST the function may get, drawn by count from the run's seed (tests/helpers/fuzz-requests.ts):
 * the handler answers every one, in-process, with a client error or success and never a 5xx, a
 * refusal is a problem document, and every reply is one /openapi.json documents (status, media type,
 * body schema, headers). Through npm start a fixed few check the served stack
 * (tests/e2e/serve-guard.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import handler from '../../netlify/functions/proposal.mts';
import { readDist } from '../../scripts/local-site/dist.ts';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { fuzzRequests } from '../helpers/fuzz-requests.ts';
import type { Schema } from '../helpers/openapi-arbitraries.ts';
import { responseChecker } from '../helpers/openapi-responses.ts';

// In-process an answer takes about a millisecond: every run sends all of them, whatever the load.
const RUNS = 2_000;
const check = responseChecker(JSON.parse(readDist('openapi.json')) as Schema);

let blobs: TestBlobs;
beforeAll(async () => {
  // A body that happens to be a valid submit is stored: in a Blobs server of this file's own.
  blobs = await startBlobs();
});
afterAll(async () => blobs?.stop());

describe('fuzzed requests to POST /api/proposal, in-process', () => {
  it(`answers all ${RUNS} without a 5xx; every refusal is a problem document, every reply a documented one`, async () => {
    const wrong: string[] = [];
    const undocumented: string[] = [];
    let answered = 0;
    for (const { body, headers } of fuzzRequests(RUNS)) {
      const res = await handler(new Request('http://127.0.0.1/api/proposal', { method: 'POST', headers, body }));
      const text = await res.clone().text();
      answered++;
      const type = res.headers.get('content-type') ?? '';
      if (res.status >= 500) wrong.push(`${res.status} for ${JSON.stringify(body).slice(0, 80)}`);
      else if (res.status >= 400 && !/^(application\/problem\+json|text\/html)/.test(type))
        wrong.push(`${res.status} as ${type}: ${text.slice(0, 80)}`);
      const { mismatches } = await check('/api/proposal', 'post', res);
      undocumented.push(...mismatches.map((m) => `${m} for ${JSON.stringify(body).slice(0, 80)}`));
    }
    expect(answered).toBe(RUNS);
    expect(wrong).toEqual([]);
    expect(undocumented).toEqual([]);
  }, 120_000);
});
