/** The inbox: CSV rules, and scripts/inbox.ts reading the store layout `netlify serve` leaves on disk. */
import { execFile, spawn } from 'node:child_process';
import { hash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { getStore } from '@netlify/blobs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { csvField, toCsv } from '../../scripts/inbox/export.ts';
import type { SubmitRequest } from '../../src/contract/requests.ts';
import { readConfig } from '../../src/proposal/config.ts';
import { ProposalsStore } from '../../src/proposal/store/blobs.ts';
import { crmAdapter } from '../../src/proposal/submit/crm.ts';
import { buildRecord, type ProposalRecord } from '../../src/proposal/submit/record.ts';
import { startBlobs } from '../helpers/blobs.ts';
import { startCrmServer } from '../helpers/crm-server.ts';
import { startOutboundTrap, type OutboundTrap } from '../helpers/outbound-trap.ts';
import {
  CONSENT,
  PARTNER,
  envOf,
  newWebhookSecret,
  submit,
  submitRequest,
  testCtx,
} from '../helpers/submit-fixtures.ts';

const run = promisify(execFile);
const SCRIPT = resolve(import.meta.dirname, '../../scripts/inbox.ts');

describe('CSV export', () => {
  it('quotes per RFC 4180 and guards against spreadsheet formulas', () => {
    expect(csvField('plain')).toBe('"plain"');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('-1')).toBe(`"'-1"`);
    expect(csvField(3)).toBe('"3"');
    expect(csvField(undefined)).toBe('""');
  });

  it('keeps every field one cell whatever separator the spreadsheet splits on (OWASP CSV injection)', () => {
    // A ; locale (de-DE, fr-FR) splits an unquoted field at ;, a tab import at tab: quoted, neither does.
    expect(csvField('Acme;=1+1;')).toBe('"Acme;=1+1;"');
    expect(csvField('Acme\t=1+1')).toBe('"Acme\t=1+1"');
    expect(csvField('Acme|@SUM(A1)')).toBe('"Acme|@SUM(A1)"');
    for (const lead of ['=', '+', '-', '@', '\t', '\r'])
      expect(csvField(`${lead}cmd|' /C calc'!A0`)).toBe(`"'${lead}cmd|' /C calc'!A0"`);
    // Inside a field the characters are data, kept as they were.
    expect(csvField('a=b+c-d@e')).toBe('"a=b+c-d@e"');
  });

  it('writes one CRLF-terminated row per request under a header row', () => {
    const record = buildRecord(submitRequest({ constraints: 'GDPR,\n"fixed" budget' }), {
      requestId: 'r-1',
      receivedAt: '2026-11-20T10:00:00.000Z',
      crm: 'inbox',
      consent: CONSENT,
      entryKey: 'keys/k',
      notification: { email: 'not_configured', chat: 'not_configured' },
    });
    const csv = toCsv([record]);
    const [header, row] = csv.split('\r\n');
    // The person and the company first, the bookkeeping last (a byte-order mark for spreadsheets).
    expect(header).toMatch(
      /^\uFEFF"name","email","company","role","phone",.*"received_at","status","crm",.*"request_id"$/s,
    );
    expect(row).toMatch(
      /^"Ann Example","ann@example.com","Example GmbH","CTO","",.*"2026-11-20T10:00:00.000Z","pending","inbox",.*"r-1"$/s,
    );
    expect(csv).toContain('"GDPR,\n""fixed"" budget"');
    expect(csv.endsWith('\r\n')).toBe(true);
  });
});

/** Each inbox test gets its own project folder (with its own local store) and runs the script there. */
let root: string;
const inbox = (...args: string[]) =>
  run(process.execPath, [SCRIPT, ...args], { cwd: root, env: { PATH: process.env['PATH'] ?? '' } });
/** The partner facts of a build, which redeliver reads from .generated/. */
async function writeKnowledge(): Promise<void> {
  await mkdir(join(root, '.generated'), { recursive: true });
  await writeFile(
    join(root, '.generated', 'knowledge.json'),
    JSON.stringify({
      partner: { name: PARTNER.name, described_as: PARTNER.describedAs, email: PARTNER.email },
      urls: { proposal_page: PARTNER.proposalUrl },
      consent: CONSENT,
    }),
  );
}

/** Stores one request whose CRM delivery is owed: accepted for the webhook CRM while it lacked its URL. */
async function storePendingWebhookRequest(): Promise<string> {
  const blobs = await startBlobs({ directory: join(root, '.netlify', 'blobs-serve'), siteID: 'unlinked' });
  const store = new ProposalsStore();
  const pending = await submit(
    testCtx(store, { env: { CRM_PROVIDER: 'webhook' } }),
    submitRequest({ email: 'cy@example.com' }),
    randomUUID(),
  );
  await blobs.stop();
  return (pending.body as { request_id: string }).request_id;
}

function useProjectFolder(): void {
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'inbox-'));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(root, { recursive: true, force: true });
  });
}

describe('scripts/inbox.ts', () => {
  useProjectFolder();

  /** Stores two requests the way `netlify serve` would: one received, one pending. */
  async function seed(siteID: string): Promise<void> {
    const blobs = await startBlobs({ directory: join(root, '.netlify', 'blobs-serve'), siteID });
    const store = new ProposalsStore();
    const base = testCtx(store);
    await submit(base, submitRequest(), randomUUID());
    const misconfigured = crmAdapter(readConfig(envOf({ CRM_PROVIDER: 'webhook' })).config.crm, PARTNER);
    await submit(
      {
        ...base,
        crm: misconfigured,
      },
      submitRequest({ name: 'Bo, "Quoted"', email: 'bo@example.com' }),
      randomUUID(),
    );
    await blobs.stop();
  }

  it('says so when there is no local store', async () => {
    const { stdout } = await inbox('list');
    expect(stdout).toContain('No local store yet');
    expect(stdout).toContain('npm start');
  });

  it('lists and exports requests from an unlinked project (site id "unlinked")', async () => {
    await seed('unlinked');
    const list = await inbox('list');
    expect(list.stdout).toContain('2 requests (1 pending, 1 received)');
    expect(list.stdout).toContain('site unlinked');

    const json = JSON.parse((await inbox('export')).stdout) as ProposalRecord[];
    expect(json.map((record) => record.contact.email).sort()).toEqual(['ann@example.com', 'bo@example.com']);

    const pending = JSON.parse((await inbox('export', '--status', 'pending')).stdout) as ProposalRecord[];
    expect(pending.map((record) => record.contact.email)).toEqual(['bo@example.com']);

    const out = join(root, 'requests.csv');
    await inbox('export', '--format', 'csv', '--out', out);
    const csv = await readFile(out, 'utf8');
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(3);
    expect(csv).toContain('"Bo, ""Quoted"""');
  });

  it('reads the linked site id from .netlify/state.json', async () => {
    await seed('0c9b6a52-site');
    await writeFile(join(root, '.netlify', 'state.json'), JSON.stringify({ siteId: '0c9b6a52-site' }));
    const { stdout } = await inbox('list', '--status', 'received');
    expect(stdout).toContain('site 0c9b6a52-site');
    expect(stdout).toContain('1 request (0 pending, 1 received)');
  });

  it('explains an empty store and rejects bad options', async () => {
    await mkdir(join(root, '.netlify', 'blobs-serve', 'entries'), { recursive: true });
    expect((await inbox('list')).stdout).toContain('No proposal requests stored locally yet');
    await expect(inbox('export', '--format', 'xml')).rejects.toMatchObject({ code: 2 });
    await expect(inbox('list', '--site', 'only-site')).rejects.toMatchObject({ code: 2 });
  });
});

describe('scripts/inbox.ts redeliver and delete', () => {
  useProjectFolder();

  /** Three stored requests, two from one address, as `netlify serve` leaves them; returns their ids. */
  async function seed(): Promise<{ ann: string[]; bo: string; keys: string[] }> {
    const blobs = await startBlobs({ directory: join(root, '.netlify', 'blobs-serve'), siteID: 'unlinked' });
    const store = new ProposalsStore();
    const base = testCtx(store);
    const keys = [randomUUID(), randomUUID(), randomUUID()];
    const id = async (request: SubmitRequest, key: string) =>
      ((await submit(base, request, key)).body as { request_id: string }).request_id;
    const ann = [await id(submitRequest(), keys[0]!), await id(submitRequest({ company: 'Second' }), keys[1]!)];
    const bo = await id(submitRequest({ email: 'Bo@Example.com' }), keys[2]!);
    await blobs.stop();
    return { ann, bo, keys };
  }

  async function keysInStore(): Promise<string[]> {
    const blobs = await startBlobs({ directory: join(root, '.netlify', 'blobs-serve'), siteID: 'unlinked' });
    try {
      const { blobs: listed } = await getStore({ name: 'proposals', consistency: 'strong' }).list();
      return listed.map((b) => b.key).sort();
    } finally {
      await blobs.stop();
    }
  }

  it('delete REQUEST_ID removes that request and its key pointer, nothing else', async () => {
    const { ann, bo, keys } = await seed();
    const before = await keysInStore();
    const pointer = before.find((key) => key.startsWith('keys/') && key.endsWith(hash('sha256', keys[2]!)))!;
    const { stdout } = await inbox('delete', bo);
    expect(stdout).toContain(`request ${bo}`);
    expect(stdout).toContain(`requests/${bo}`);
    expect(stdout).toContain(pointer);
    const after = await keysInStore();
    expect(before.filter((key) => !after.includes(key)).sort()).toEqual([pointer, `requests/${bo}`].sort());
    expect(after).toContain(`requests/${ann[0]}`);
    expect((await inbox('delete', bo)).stdout).toContain('Nothing to delete');
  });

  it('delete --email removes every request from that address, whatever its case', async () => {
    const { ann, bo } = await seed();
    // Counters are named by their window (windows/<end>/<hash>): the address's daily tally among them.
    const tallies = (await keysInStore()).filter((key) => key.startsWith('windows/'));
    const { stdout } = await inbox('delete', '--email', 'ANN@example.com');
    for (const id of ann) expect(stdout).toContain(`request ${id}`);
    expect(stdout).toContain('Deleted the count of requests from ANN@example.com');
    const after = await keysInStore();
    // Ann's address tally went with her requests; Bo's stays.
    expect(after.filter((key) => key.startsWith('windows/'))).toHaveLength(tallies.length - 1);
    expect(after.filter((key) => key.startsWith('requests/'))).toEqual([`requests/${bo}`]);
    expect(after.filter((key) => key.startsWith('keys/'))).toHaveLength(1);
    await expect(inbox('delete')).rejects.toMatchObject({ code: 2 });
  });

  it('redeliver runs the scheduled work on the local store, backoff ignored, and prints what it did', async () => {
    await seed();
    // One request the CRM has not got.
    const pendingId = await storePendingWebhookRequest();
    await writeKnowledge();
    const crm = await startCrmServer();
    try {
      const env = {
        PATH: process.env['PATH'] ?? '',
        CRM_PROVIDER: 'webhook',
        CRM_WEBHOOK_URL: `${crm.url}/crm`,
        CRM_WEBHOOK_SECRET: newWebhookSecret(),
      };
      const { stdout } = await run(process.execPath, [SCRIPT, 'redeliver'], { cwd: root, env });
      expect(stdout).toMatch(/^Owed work of the local store .*, backoff ignored, \d+ ms: due 1, done 1, /);
      expect(stdout).not.toContain('"source":"proposal-submit"');
      expect(crm.requests[0]?.headers['webhook-id']).toBe(pendingId);
      expect(stdout).toContain('requests deleted 0');
      expect(crm.requests).toHaveLength(1);
      expect((await run(process.execPath, [SCRIPT, 'redeliver'], { cwd: root, env })).stdout).toMatch(
        /: due 0, done 0,/,
      );
      expect(crm.requests).toHaveLength(1);
    } finally {
      await crm.stop();
    }
  });
});

describe('scripts/inbox.ts redeliver under another configuration', () => {
  useProjectFolder();

  it('never delivers a request accepted for another CRM, and says which CRM it was accepted for', async () => {
    const pendingId = await storePendingWebhookRequest();
    await writeKnowledge();
    const crm = await startCrmServer();
    try {
      const hubspot = {
        PATH: process.env['PATH'] ?? '',
        CRM_PROVIDER: 'hubspot',
        HUBSPOT_PORTAL_ID: '1234567',
        HUBSPOT_FORM_GUID: '0f3c2d1e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
        HUBSPOT_ACCESS_TOKEN: 'pat-test-token',
        HUBSPOT_API_BASE: crm.url,
      };
      const { stdout, stderr } = await run(process.execPath, [SCRIPT, 'redeliver'], { cwd: root, env: hubspot });
      // The function's own log line, on stderr: which CRM it was accepted for, and which one is configured.
      const refusal = stderr
        .split('\n')
        .map((line) => (line.startsWith('{') ? (JSON.parse(line) as Record<string, unknown>) : {}))
        .find((entry) => entry['event'] === 'crm_not_accepted_here');
      expect(refusal).toMatchObject({ request_id: pendingId, accepted_for: 'webhook', configured: 'hubspot' });
      expect(stdout).toMatch(/: due 1, done 1,/);
      expect(crm.requests).toHaveLength(0);
      const blobs = await startBlobs({ directory: join(root, '.netlify', 'blobs-serve'), siteID: 'unlinked' });
      try {
        const record = (await getStore({ name: 'proposals', consistency: 'strong' }).get(`requests/${pendingId}`, {
          type: 'json',
        })) as ProposalRecord;
        expect(record.delivery.state).toBe('pending');
      } finally {
        await blobs.stop();
      }
    } finally {
      await crm.stop();
    }
  });
});

describe('scripts/inbox.ts redeliver against a deployed site', () => {
  useProjectFolder();
  let trap: OutboundTrap;
  beforeEach(async () => {
    trap = await startOutboundTrap();
    await writeKnowledge();
  });
  afterEach(() => trap.stop());

  /** Every fetch of the script goes to the trap: nothing leaves loopback, and the test sees what it tried. */
  const redeliverSite = (env: Record<string, string>, ...flags: string[]) =>
    run(process.execPath, [SCRIPT, 'redeliver', '--site', 'site-1', '--token', 'token-1', ...flags], {
      cwd: root,
      env: { PATH: process.env['PATH'] ?? '', ...trap.env, ...env },
    });
  const refusal = async (attempt: Promise<unknown>) => {
    const error = (await attempt.then(
      () => undefined,
      (failed: unknown) => failed,
    )) as { code?: number; stderr?: string } | undefined;
    expect(error?.code).toBe(2);
    return error?.stderr ?? '';
  };

  it("refuses without the site's CRM, mail and chat configuration, naming each variable, before reading its store", async () => {
    const stderr = await refusal(redeliverSite({}));
    expect(stderr).toContain("Not redelivering the site site-1: this configuration is not the site's.");
    expect(stderr).toContain('CRM_PROVIDER is not set');
    expect(stderr).toContain('SMTP_URL and MAIL_FROM are not set');
    expect(stderr).toContain('--no-mail');
    expect(stderr).toContain('NOTIFY_WEBHOOK_URL is not set');
    expect(stderr).toContain('--no-chat');
    expect(trap.targets).toEqual([]);
  });

  it('names the variables the configured CRM lacks', async () => {
    const stderr = await refusal(redeliverSite({ CRM_PROVIDER: 'webhook' }, '--no-mail', '--no-chat'));
    expect(stderr).toContain('CRM_PROVIDER=webhook: CRM_WEBHOOK_URL, CRM_WEBHOOK_SECRET are not set.');
    expect(stderr).not.toContain('SMTP_URL');
    expect(stderr).not.toContain('NOTIFY_WEBHOOK_URL');
    expect(trap.targets).toEqual([]);
  });

  it("goes on to the site's store with the site's configuration from .env", async () => {
    await writeFile(
      join(root, '.env'),
      [
        'CRM_PROVIDER=webhook',
        'CRM_WEBHOOK_URL=http://127.0.0.1:9/crm',
        `CRM_WEBHOOK_SECRET=${newWebhookSecret()}`,
        'SMTP_URL=smtp://127.0.0.1:9',
        'MAIL_FROM=no-reply@kestrel.example',
        '',
      ].join('\n'),
    );
    // Past the checks it reads the site's store (through the trap, which refuses): ended once it tried.
    const child = spawn(
      process.execPath,
      [SCRIPT, 'redeliver', '--site', 'site-1', '--token', 'token-1', '--no-chat'],
      {
        cwd: root,
        env: { PATH: process.env['PATH'] ?? '', ...trap.env },
        stdio: 'ignore',
      },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await vi.waitFor(() => expect(trap.targets).toContain('api.netlify.com:443'), { timeout: 10_000 });
    } finally {
      child.kill();
      await exited;
    }
  });

  it('takes --no-mail and --no-chat only with redeliver', async () => {
    await expect(inbox('list', '--no-mail')).rejects.toMatchObject({ code: 2 });
  });
});
