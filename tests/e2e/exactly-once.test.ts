/**
 * The intake's promises across a crash of the served stack (`npm start`, every invocation in its own
 * worker): killed with emails in flight and restarted, every request retried is stored once and
 * emailed once. The logic under concurrency and store faults is tested in-process
 * (tests/unit/submit-store-faults.test.ts); hostile bodies in tests/e2e/serve-guard.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite } from '../../scripts/local-site/start-site.ts';
import { mailsTo, readableMail, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { submitRequest } from '../helpers/submit-fixtures.ts';
import { submitWithRetries } from '../helpers/submit-client.ts';
import { TEST_MAIL_FROM as MAIL_FROM } from '../helpers/loopback-parts.ts';

/** These tests send every request from one address and count emails per key, not the send limits. */
// Every local client is one (127.0.0.1): the per-client limit would hold back all but 20 of 50.
const NO_SEND_LIMITS = {
  CONFIRMATION_LIMIT_PER_ADDRESS: '1000000',
  CONFIRMATION_LIMIT_PER_CLIENT: '1000000',
  CONFIRMATION_LIMIT_PER_DOMAIN: '1000000',
  NOTIFY_LIMIT_PER_HOUR: '1000000',
};
const body = (company = 'Example GmbH') => JSON.stringify({ ...submitRequest({ company }), role: undefined });

/**
 * One submit as a client that follows the contract (tests/helpers/submit-client.ts), which also
 * retries a received request whose email is still owed ('not_sent'): the retry sends it.
 */
async function submit(url: string, key: string, payload: string, deadline: number) {
  const { http, body } = await submitWithRetries(url, payload, {
    key,
    deadline,
    again: (answer) => answer.http === 201 && answer.body.confirmation_email === 'not_sent',
  });
  return { status: http, requestId: body.request_id, email: body.confirmation_email };
}

/** Runs `work` over `items`, `limit` at a time. */
async function pool<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i] as T, i);
      }
    }),
  );
  return results;
}

/** Confirmation emails only: the sales team's notices go to the partner's address. */
const confirmations = (smtp: TestSmtp) => mailsTo(smtp.messages, submitRequest().email);
const requestIdOfMail = (raw: string) => /Reference: ([0-9a-f-]{36})/.exec(readableMail(raw))?.[1];
const messageIdOfMail = (raw: string) => /^Message-ID: (<[^>]+>)/im.exec(raw)?.[1];

describe('a crash loses nothing and duplicates nothing (inbox, SMTP)', () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(() => smtp?.stop());

  it('50 submits, the server killed with emails in flight, restarted, every request retried', async () => {
    const env = { SMTP_URL: smtp.url, MAIL_FROM, ...NO_SEND_LIMITS };
    let site = await startSite(env);
    const keys = Array.from({ length: 50 }, () => randomUUID());
    // Slow acknowledgements keep emails in flight when the kill comes: stored, not yet emailed.
    smtp.delayAcknowledgement(1_500);
    const first = keys.map((key, i) =>
      submit(site.url, key, body(`Company ${i}`), Date.now() + 5_000).catch(() => undefined),
    );
    // 50 workers start at once: on a loaded runner the first emails leave late.
    await expect
      .poll(() => smtp.inFlight() + confirmations(smtp).length, { timeout: 300_000 })
      .toBeGreaterThanOrEqual(5);
    await site.stop({ keep: true, signal: 'SIGKILL' });
    await Promise.all(first);
    const emailedBeforeCrash = confirmations(smtp).length;
    expect(emailedBeforeCrash).toBeLessThan(50);

    smtp.delayAcknowledgement(0);
    site = await startSite(env, 180_000, site.dir);
    try {
      // A killed invocation's lease runs out (store/limits.ts, leaseMs) before a retry takes its request over.
      const answers = await pool(keys, 10, (key, i) =>
        submit(site.url, key, body(`Company ${i}`), Date.now() + 300_000),
      );
      expect(answers.map((a) => a.status).filter((s) => s !== 201)).toEqual([]);
      expect(answers.map((a) => a.email).filter((e) => e !== 'sent')).toEqual([]);

      const requestIds = answers.map((a) => a.requestId);
      expect(new Set(requestIds).size).toBe(50);
      const stored = readdirSync(join(site.dir, '.netlify/blobs-serve/entries'), {
        recursive: true,
        encoding: 'utf8',
      }).filter((p) => /proposals[\\/]requests[\\/][0-9a-f-]{36}$/.test(p));
      expect(stored).toHaveLength(50);
      // Every request's email arrived. A crash between the mail server's acceptance and the record
      // of it makes the retry send it again, with the same Message-ID (one per request), which
      // mailbox providers show once: so a person receives each confirmation exactly once.
      const emailed = confirmations(smtp).map((m) => requestIdOfMail(m.raw));
      expect(new Set(emailed)).toEqual(new Set(requestIds));
      const byMessageId = new Map<string, Set<string | undefined>>();
      for (const m of confirmations(smtp)) {
        const id = messageIdOfMail(m.raw) ?? 'none';
        byMessageId.set(id, (byMessageId.get(id) ?? new Set()).add(requestIdOfMail(m.raw)));
      }
      expect(byMessageId.size).toBe(50);
      expect([...byMessageId.values()].every((ids) => ids.size === 1)).toBe(true);
      console.info(
        `crash test: ${emailedBeforeCrash} emails before the kill, ${confirmations(smtp).length} confirmation SMTP transactions for 50 requests`,
      );
    } finally {
      await site.stop();
    }
    // Two starts, the wait for emails in flight and 50 retries: a loaded runner needs longer.
  }, 900_000);
});
