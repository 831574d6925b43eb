/**
 * The intake's promises, kept by the served stack (`npm start`: every invocation in its own
 * worker) under real concurrency, crashes and hostile bodies: one Idempotency-Key gives one
 * stored request, at most one CRM delivery, at most one email and one request_id, and no single
 * request can end the local server.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCrmServer, type TestCrmServer } from '../helpers/crm-server.ts';
import { startSite, type RunningSite } from '../../scripts/local-site/start-site.ts';
import { mailsTo, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { submitRequest } from '../helpers/submit-fixtures.ts';
import { loopbackDeliveryEnv, TEST_MAIL_FROM as MAIL_FROM } from '../helpers/loopback-parts.ts';

/** These tests send every request from one address and count emails per key, not the send limits. */
// Every local client is one (127.0.0.1): the per-client limit would hold back all but 20 of 50.
const NO_SEND_LIMITS = {
  CONFIRMATION_LIMIT_PER_ADDRESS: '1000000',
  CONFIRMATION_LIMIT_PER_CLIENT: '1000000',
  NOTIFY_LIMIT_PER_HOUR: '1000000',
};
const body = (company = 'Example GmbH') => JSON.stringify({ ...submitRequest({ company }), role: undefined });

interface Answer {
  status: number;
  requestId?: string | undefined;
  email?: string | undefined;
}

/**
 * One submit as a client that follows the contract: on 409 and 503 it waits Retry-After and
 * retries with the same key; so it does when the platform itself answered (a function timeout under
 * load is plain text, not our JSON).
 */
async function submit(url: string, key: string, payload: string, deadline = Date.now() + 90_000): Promise<Answer> {
  for (;;) {
    const res = await fetch(`${url}/api/proposal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key },
      body: payload,
    });
    const fromFunction = /json/.test(res.headers.get('content-type') ?? '');
    const json = fromFunction
      ? ((await res.json()) as { request_id?: string; confirmation_email?: string })
      : (await res.text(), {});
    // 'not_sent' on a received request: the email is owed, and a retry with the key sends it.
    const owed = res.status === 201 && json.confirmation_email === 'not_sent';
    // 409: the key is busy; 503: the store did not answer in time (a loaded machine).
    const retry = res.status === 409 || res.status === 503 || !fromFunction || owed;
    if (!retry || Date.now() > deadline)
      return { status: res.status, requestId: json.request_id, email: json.confirmation_email };
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
  }
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
const requestIdOfMail = (raw: string) => /Request id: ([0-9a-f-]{36})/.exec(raw)?.[1];
const messageIdOfMail = (raw: string) => /^Message-ID: (<[^>]+>)/im.exec(raw)?.[1];

describe('exactly once under concurrency (webhook CRM, SMTP)', () => {
  let site: RunningSite;
  let crm: TestCrmServer;
  let smtp: TestSmtp;

  beforeAll(async () => {
    [crm, smtp] = await Promise.all([startCrmServer(), startSmtp()]);
    site = await startSite({
      ...loopbackDeliveryEnv(crm, smtp),
      ...NO_SEND_LIMITS,
    });
  });
  afterAll(async () => {
    await site?.stop();
    await Promise.all([crm?.stop(), smtp?.stop()]);
  });

  it('N simultaneous submits with one key: one request, one delivery, one email (5×20, 10×5, 10×2)', async () => {
    const rounds = [...Array<number>(5).fill(20), ...Array<number>(10).fill(5), ...Array<number>(10).fill(2)];
    const keys: string[] = [];
    for (const n of rounds) {
      const key = randomUUID();
      keys.push(key);
      const answers = await Promise.all(Array.from({ length: n }, () => submit(site.url, key, body())));
      expect(answers.map((a) => a.status).filter((s) => s !== 201)).toEqual([]);
      expect(new Set(answers.map((a) => a.requestId)).size).toBe(1);
      expect(new Set(answers.map((a) => a.email))).toEqual(new Set(['sent']));
    }
    const deliveries = new Map<string, number>();
    for (const request of crm.requests) {
      const id = String(request.headers['webhook-id']);
      deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
    }
    expect(keys.map((key) => deliveries.get(key) ?? 0)).toEqual(keys.map(() => 1));
    const emails = confirmations(smtp).map((m) => requestIdOfMail(m.raw));
    expect(emails).toHaveLength(rounds.length);
    expect(new Set(emails).size).toBe(rounds.length);
    // 115 submits through the whole stack, one round after another: a loaded runner needs longer.
  }, 360_000);
});

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
      .poll(() => smtp.inFlight() + confirmations(smtp).length, { timeout: 150_000 })
      .toBeGreaterThanOrEqual(5);
    await site.stop({ keep: true, signal: 'SIGKILL' });
    await Promise.all(first);
    const emailedBeforeCrash = confirmations(smtp).length;
    expect(emailedBeforeCrash).toBeLessThan(50);

    smtp.delayAcknowledgement(0);
    site = await startSite(env, 180_000, site.dir);
    try {
      const answers = await pool(keys, 10, (key, i) => submit(site.url, key, body(`Company ${i}`)));
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
  }, 600_000);
});

describe('no single request ends the local server', () => {
  let site: RunningSite;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(() => site?.stop());

  const port = () => Number(new URL(site.url).port);
  const alive = async () => (await fetch(`${site.url}/api/capabilities`)).status;

  /** Sends raw bytes and resolves with whatever came back when the server closed or after `waitMs`. */
  function raw(
    head: string,
    parts: (string | Buffer)[],
    options: { waitMs: number; abortAfterMs?: number },
  ): Promise<string> {
    return new Promise((resolve) => {
      const socket = connect(port(), '127.0.0.1');
      let reply = '';
      socket.on('data', (d: Buffer) => (reply += d.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(reply));
      socket.write(head);
      for (const part of parts) socket.write(part);
      if (options.abortAfterMs !== undefined) setTimeout(() => socket.destroy(), options.abortAfterMs);
      setTimeout(() => {
        socket.destroy();
        resolve(reply);
      }, options.waitMs);
    });
  }

  const head = (length: number) =>
    `POST /api/proposal HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

  it('N simultaneous submits with one key into the inbox: one stored request (5×20)', async () => {
    const keys = Array.from({ length: 5 }, () => randomUUID());
    for (const key of keys) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => submit(site.url, key, body())));
      expect(answers.map((a) => a.status).filter((s) => s !== 201)).toEqual([]);
      expect(new Set(answers.map((a) => a.requestId)).size).toBe(1);
    }
    const stored = readdirSync(join(site.dir, '.netlify/blobs-serve/entries'), {
      recursive: true,
      encoding: 'utf8',
    }).filter((p) => /proposals[\\/]requests[\\/][0-9a-f-]{36}$/.test(p));
    expect(stored).toHaveLength(keys.length);
  });

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
    await raw(head(100_000), ['{"action":"guide","question":"'], { waitMs: 1_000, abortAfterMs: 200 });
    expect(await alive()).toBe(200);
  });

  it('a body that stalls: 408, and the next request is served', async () => {
    const reply = await raw(head(1_000), ['{"action":'], { waitMs: 15_000 });
    expect(reply).toMatch(/^HTTP\/1\.1 408/);
    expect(await alive()).toBe(200);
  }, 30_000);

  it('a slow body that completes in time is answered by the function', async () => {
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
      let i = 0;
      const timer = setInterval(() => {
        if (i < parts.length) socket.write(parts[i++]!);
        else clearInterval(timer);
      }, 100);
      setTimeout(() => {
        socket.destroy();
        resolve(text);
      }, 15_000);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 200/);
  }, 30_000);

  it('fuzzed bodies (up to 2,000 in 240 s): no 5xx and the server stays up', async () => {
    const actions = fc.constantFrom('guide', 'summarize', 'submit', 'other');
    const value = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 3 }),
    );
    const bodies = fc.oneof(
      fc
        .record({ action: actions }, { requiredKeys: [] })
        .chain((base) =>
          fc
            .dictionary(fc.string({ maxLength: 20 }), value, { maxKeys: 8 })
            .map((extra) => JSON.stringify({ ...extra, ...base })),
        ),
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 300 }),
    );
    const headers = fc.record({
      'content-type': fc.constantFrom('application/json', 'application/x-www-form-urlencoded', 'text/plain', ''),
      'idempotency-key': fc.option(fc.string({ maxLength: 300 }), { nil: undefined }),
    });
    const samples = fc.sample(fc.tuple(bodies, headers), { numRuns: 2_000, seed: 20261122 });
    // Every invocation under netlify serve starts a worker: bounded in time, not in count, so a
    // slow machine sends fewer bodies rather than failing on time.
    const budgetEnds = Date.now() + 240_000;
    const statuses: number[] = [];
    for (let i = 0; i < samples.length && Date.now() < budgetEnds; i += 20) {
      const batch = samples.slice(i, i + 20).map(async ([payload, h]) => {
        const sent: Record<string, string> = {};
        for (const [name, v] of Object.entries(h)) if (v !== undefined && /^[\t\x20-\x7e]*$/.test(v)) sent[name] = v;
        const res = await fetch(`${site.url}/api/proposal`, { method: 'POST', headers: sent, body: payload });
        await res.arrayBuffer();
        return res.status;
      });
      statuses.push(...(await Promise.all(batch)));
    }
    console.info(`fuzzed bodies sent through npm start: ${statuses.length}`);
    expect(statuses.length).toBeGreaterThanOrEqual(300);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(await alive()).toBe(200);
  }, 300_000);
});
