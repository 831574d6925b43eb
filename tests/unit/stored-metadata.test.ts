/**
 * What is stored and sent beside the body (the Idempotency-Key, the client's name) passes the same
 * sensitive-data guard (actions/pipeline.ts): a key that looks like a secret is refused, a client name
 * that does is dropped. Through the HTTP door, into a store in memory.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { userAgentProduct } from '../../src/contract/source.ts';
import { createHttpDoor } from '../../src/proposal/doors/http.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';
import { fake } from '../fixtures/sensitive-corpus.ts';
import { invocationOf, KNOWLEDGE, testIntake } from '../helpers/intake.ts';
import { memoryBlobs } from '../helpers/memory-blobs.ts';
import { submitRequest } from '../helpers/submit-fixtures.ts';

const { form_started_at: _started, ...submitted } = submitRequest();
const token = () => 'ghp_' + fake('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 36, 7);

function door() {
  const memory = memoryBlobs();
  const store = memory.store();
  const handle = createHttpDoor(testIntake({}, { store }), KNOWLEDGE);
  const post = (key: string, headers: Record<string, string> = {}) =>
    handle(
      invocationOf(
        new Request(KNOWLEDGE.urls.proposal_api, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': key, ...headers },
          body: JSON.stringify(submitted),
        }),
      ),
    );
  const records = async () =>
    Promise.all(
      (await store.listWhile('requests/')).map(async (key) => (await store.read(key))!.value as ProposalRecord),
    );
  return { post, records, memory };
}

describe('the stored metadata guard', () => {
  it('refuses an idempotency key that looks like a token, naming the key and not the value', async () => {
    const { post, memory } = door();
    const key = token();
    const keyRefused = await post(key);
    expect(keyRefused.status).toBe(422);
    const body = await keyRefused.text();
    expect(body).toContain('idempotency key');
    expect(body).not.toContain(key);
    // Refused before anything is stored.
    expect(memory.counts.writes).toBe(0);
  });

  it('drops a client name that looks like a token, keeps an ordinary one, and passes a UUID key', async () => {
    const secretAgent = userAgentProduct(`${token()} (compatible)`);
    expect(secretAgent).toMatch(/^ghp_/);
    const dropped = door();
    expect((await dropped.post(randomUUID(), { 'user-agent': `${secretAgent!} (compatible)` })).status).toBe(201);
    const [droppedRecord] = await dropped.records();
    expect(droppedRecord!.source).toEqual({ channel: 'http-api' });
    const kept = door();
    expect((await kept.post(randomUUID(), { 'user-agent': 'claude-ai/0.1.0' })).status).toBe(201);
    const [keptRecord] = await kept.records();
    expect(keptRecord!.source).toEqual({ channel: 'http-api', client: 'claude-ai/0.1.0' });
  });
});
