/** CRM outages keep the request stored as pending (202); a retry with the same key completes it. */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';
import { readAll } from '../helpers/blobs.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { freePort } from '../../scripts/free-port.ts';
import { OK, type CrmBehaviour } from '../helpers/crm-server.ts';
import { mailsTo } from '../helpers/smtp.ts';
import { captureLogLines, logText, type LogLine } from '../helpers/log-lines.ts';
import { submit, submitRequest, testCtx } from '../helpers/submit-fixtures.ts';
import type { Ctx } from '../../src/proposal/work/context.ts';

const parts = useLoopbackParts();
const { webhookSecret: secret } = parts;
let logs: LogLine[];
beforeEach(() => {
  logs = captureLogLines();
});
afterEach(() => {
  vi.restoreAllMocks();
});

function makeDeps(env: Record<string, string> = {}): Ctx {
  const values = {
    CRM_PROVIDER: 'webhook',
    CRM_WEBHOOK_URL: `${parts.crm.url}/crm`,
    CRM_WEBHOOK_SECRET: secret,
    CRM_TIMEOUT_MS: '300',
    SMTP_URL: parts.smtp.url,
    MAIL_FROM: 'no-reply@kestrel.example',
    ...env,
  };
  return testCtx(parts.blobs.freshStore(), { env: values });
}

async function records(deps: Ctx): Promise<ProposalRecord[]> {
  return (await readAll(deps.store, 'requests/')) as ProposalRecord[];
}

const outages: Array<{ name: string; behaviour: CrmBehaviour; kind: string; retryAfter: string }> = [
  // Retry-After: when the CRM is tried next (the first backoff step, REDELIVERY_BACKOFF_SECONDS' 60 s).
  { name: '500', behaviour: { kind: 'status', status: 500 }, kind: 'server-error', retryAfter: '60' },
  { name: '503', behaviour: { kind: 'status', status: 503 }, kind: 'server-error', retryAfter: '60' },
  {
    name: '429 with Retry-After',
    behaviour: { kind: 'status', status: 429, headers: { 'retry-after': '7' } },
    kind: 'rate-limited',
    retryAfter: '60',
  },
  { name: 'no answer (timeout)', behaviour: { kind: 'hang' }, kind: 'timeout', retryAfter: '60' },
  { name: 'a dropped connection', behaviour: { kind: 'drop' }, kind: 'unreachable', retryAfter: '60' },
  { name: '400 (rejected, kept)', behaviour: { kind: 'status', status: 400 }, kind: 'rejected', retryAfter: '60' },
];

describe('when the CRM is not reachable', () => {
  it.each(outages)(
    'answers 202 pending on $name; a retry before the next attempt reads the record, one after it completes',
    async ({ behaviour, kind, retryAfter }) => {
      const deps = makeDeps();
      const key = randomUUID();
      parts.crm.behave(behaviour);

      const pending = await submit(deps, submitRequest(), key);
      expect(pending.status).toBe(202);
      expect(pending.headers?.['Retry-After']).toBe(retryAfter);
      const body = pending.body as Record<string, unknown>;
      expect(body).toMatchObject({
        status: 'pending',
        confirmation_email: 'not_sent',
        retry_after_seconds: Number(retryAfter),
      });
      expect(body['message']).toMatch(/^Stored safely; it is delivered .* automatically, without a retry/);
      expect(body['message']).not.toMatch(/email was sent/i);

      let stored = await records(deps);
      expect(stored).toHaveLength(1);
      expect(stored[0]?.request_id).toBe(body['request_id']);
      // The engine keeps the step's attempts: the first, failed.
      expect(stored[0]).toMatchObject({
        delivery: { state: 'pending', last_error_kind: kind },
        work: { crm: { attempts: 1 } },
      });
      expect(stored[0]?.confirmation_email.state).toBe('not_sent');
      expect(mailsTo(parts.smtp.messages, 'ann@example.com')).toHaveLength(0);

      parts.crm.behave(OK);
      // Before the next attempt is due the retry answers from the record: the CRM is not called.
      const early = await submit(deps, submitRequest(), key);
      expect(early.status).toBe(202);
      expect(early.body).toMatchObject({ status: 'pending', request_id: body['request_id'] });
      expect(parts.crm.requests).toHaveLength(1);
      const later = { ...deps, now: () => new Date(Date.now() + 61_000) };
      const received = await submit(later, submitRequest(), key);
      expect(received.status).toBe(201);
      expect(received.body).toMatchObject({
        status: 'received',
        confirmation_email: 'sent',
        request_id: body['request_id'],
        received_at: body['received_at'],
      });

      stored = await records(deps);
      expect(stored).toHaveLength(1);
      // Settled, the step's attempts are forgotten: the CRM's two requests are its count.
      expect(stored[0]?.delivery).toMatchObject({ state: 'received' });
      expect(stored[0]?.work ?? {}).toEqual({});
      expect(parts.crm.requests).toHaveLength(2);
      expect(new Set(parts.crm.requests.map((request) => request.headers['webhook-id']))).toEqual(
        new Set([body['request_id']]),
      );
      expect(mailsTo(parts.smtp.messages, 'ann@example.com')).toHaveLength(1);

      // Settled: further retries replay and never deliver again.
      const replay = await submit(later, submitRequest(), key);
      expect(replay.body).toEqual(received.body);
      expect(replay.headers?.['Idempotent-Replayed']).toBe('true');
      expect(parts.crm.requests).toHaveLength(2);
    },
  );

  it('answers 202 when nothing listens at the CRM address (connection refused)', async () => {
    const port = await freePort();
    const deps = makeDeps({ CRM_WEBHOOK_URL: `http://127.0.0.1:${port}/crm` });
    const reply = await submit(deps, submitRequest(), randomUUID());
    expect(reply.status).toBe(202);
    expect((await records(deps))[0]?.delivery.last_error_kind).toBe('unreachable');
  });

  it('keeps the request pending when the CRM is misconfigured and logs the variable, not the data', async () => {
    const deps = makeDeps({ CRM_WEBHOOK_URL: '' });
    const reply = await submit(deps, submitRequest(), randomUUID());

    expect(reply.status).toBe(202);
    expect((await records(deps))[0]?.delivery).toMatchObject({ state: 'pending', last_error_kind: 'misconfigured' });
    const logged = logText(logs);
    expect(logs.find((line) => line.entry['event'] === 'crm_misconfigured')?.level).toBe('error');
    expect(logged).toContain('CRM_WEBHOOK_URL');
    expect(logged).not.toMatch(/ann@example\.com|Ann Example|Example GmbH/);
    expect(parts.crm.requests).toHaveLength(0);
  });

  it('keeps requests pending under an unknown CRM_PROVIDER instead of accepting them', async () => {
    const deps = makeDeps({ CRM_PROVIDER: 'salesforce' });
    const reply = await submit(deps, submitRequest(), randomUUID());
    expect(reply.status).toBe(202);
    expect(logText(logs)).toContain('CRM_PROVIDER');
  });
});
