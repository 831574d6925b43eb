/**
 * What is stored and sent beside the body (the Idempotency-Key, the client's name) passes the same
 * sensitive-data guard: a key that looks like a secret is refused, a client name that does is dropped.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { guardedMetadata } from '../../src/proposal/actions/stored-metadata.ts';
import { userAgentProduct } from '../../src/contract/source.ts';
import { fake } from '../fixtures/sensitive-corpus.ts';

const token = () => 'ghp_' + fake('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 36, 7);

describe('the stored metadata guard', () => {
  it('refuses an idempotency key that looks like a token, naming the key and not the value', async () => {
    const key = token();
    const { keyRefused } = await guardedMetadata(key, { channel: 'http-api' });
    expect(keyRefused?.status).toBe(422);
    expect(JSON.stringify(keyRefused?.body)).toContain('idempotency key');
    expect(JSON.stringify(keyRefused?.body)).not.toContain(key);
  });

  it('drops a client name that looks like a token, keeps an ordinary one, and passes a UUID key', async () => {
    const secretAgent = userAgentProduct(`${token()} (compatible)`);
    expect(secretAgent).toMatch(/^ghp_/);
    const dropped = await guardedMetadata(randomUUID(), { channel: 'http-api', client: secretAgent });
    expect(dropped).toEqual({ source: { channel: 'http-api', client: undefined } });
    const kept = await guardedMetadata(randomUUID(), { channel: 'mcp', client: 'claude-ai/0.1.0' });
    expect(kept).toEqual({ source: { channel: 'mcp', client: 'claude-ai/0.1.0' } });
  });
});
