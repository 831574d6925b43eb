/**
 * The functions exactly as the packager ships them (netlify.toml's [functions] settings, including
 * the traced files it leaves out), each unpacked into its own temp folder and run from there: a submit
 * must store the request and send the notice through nodemailer, and an MCP call must load the
 * bundled SDK the zip carries as a file of its own, so every module the ESM runtime loads is in it.
 * The submit goes to a webhook CRM, so the packages loaded on first use (secretlint, the Blobs client,
 * Standard Webhooks, nodemailer) all run from the zip. The scheduled function (owed-work) loads
 * nothing at import either, only the Blobs client and the CRM's signer for a run with nothing to
 * send, and delivers from its own zip what a submit left owed.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rpcMessage } from '../helpers/mcp-reply.ts';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EXAMPLE_REQUESTS } from '../../src/contract/contract.ts';
import { FUNCTION_SOURCE, functionsSettings, packFunction, SHIPPED_ENTRY } from '../../scripts/shipped-function.ts';
import { OK } from '../helpers/crm-server.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';
import { mailsTo } from '../helpers/smtp.ts';

const parts = useLoopbackParts();
const work = mkdtempSync(join(tmpdir(), 'kestrel-shipped-'));
/** The scheduled function, packed by the same settings; its file in the zip. */
const SCHEDULED_SOURCE = join(dirname(FUNCTION_SOURCE), 'owed-work.mts');
const SCHEDULED_ENTRY = 'netlify/functions/owed-work.mjs';
let unpacked = '';
let unpackedScheduled = '';

/** The packages of interest among loaded module URLs. */
const packages = (urls: string[]) =>
  [
    ...new Set(
      urls.flatMap(
        (url) =>
          /node_modules\/(@secretlint\/[^/]+|@netlify\/blobs|standardwebhooks|nodemailer)\//.exec(url)?.[1] ?? [],
      ),
    ),
  ].sort();

/** Runs `code` as a module in a fresh Node process in `cwd`, with a hook that lists every module loaded; its last line parsed. */
function freshProcess(cwd: string, code: string): Record<string, unknown> {
  const out = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { registerHooks } from 'node:module';
const loaded = [];
registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
${code}`,
    ],
    { cwd, encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
}
const VARIABLES = ['SMTP_URL', 'MAIL_FROM', 'CRM_PROVIDER', 'CRM_WEBHOOK_URL', 'CRM_WEBHOOK_SECRET'] as const;
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));

beforeAll(async () => {
  unpacked = (await packFunction(work, 'none')).path;
  unpackedScheduled = (await packFunction(work, 'none', SCHEDULED_SOURCE)).path;
  process.env['SMTP_URL'] = parts.smtp.url;
  process.env['MAIL_FROM'] = 'Kestrel Cloud <no-reply@kestrel.example>';
  process.env['CRM_PROVIDER'] = 'webhook';
  process.env['CRM_WEBHOOK_URL'] = `${parts.crm.url}/hook`;
  process.env['CRM_WEBHOOK_SECRET'] = parts.webhookSecret;
}, 120_000);
afterEach(() => vi.useRealTimers());
afterAll(() => {
  for (const [name, value] of Object.entries(saved))
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  rmSync(work, { recursive: true, force: true });
});

describe('the shipped function, run from its unpacked zip', () => {
  it('leaves out what netlify.toml excludes', () => {
    const modules = join(unpacked, 'node_modules');
    expect(existsSync(join(modules, 'nodemailer/dist/esm/nodemailer.js'))).toBe(true);
    expect(existsSync(join(modules, 'nodemailer/dist/cjs'))).toBe(false);
    expect(functionsSettings().includedFiles.length).toBeGreaterThan(0);
  });

  it('imports without loading what only some requests need; a guide loads secretlint for its scan', () => {
    const entry = pathToFileURL(join(unpacked, SHIPPED_ENTRY)).href;
    const { atImport, afterGuide, status } = freshProcess(
      unpacked,
      `const m = await import(${JSON.stringify(entry)});
const atImport = [...loaded];
const res = await m.default(new Request('http://127.0.0.1/api/proposal', { method: 'POST', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(JSON.stringify(EXAMPLE_REQUESTS.guide))} }));
console.log(JSON.stringify({ atImport, afterGuide: loaded, status: res.status }));`,
    ) as { atImport: string[]; afterGuide: string[]; status: number };
    expect(atImport.some((url) => url === entry)).toBe(true);
    expect(packages(atImport)).toEqual([]);
    expect(status).toBe(200);
    expect(packages(afterGuide)).toEqual(expect.arrayContaining(['@secretlint/core', '@secretlint/profiler']));
  }, 60_000);

  it('accepts a submit, signs its delivery to the webhook CRM and emails the notice through nodemailer', async () => {
    const { default: handler } = (await import(pathToFileURL(join(unpacked, SHIPPED_ENTRY)).href)) as {
      default: (req: Request) => Promise<Response>;
    };
    const res = await handler(
      new Request('http://127.0.0.1/api/proposal', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify(EXAMPLE_REQUESTS.submit),
      }),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const [delivery] = parts.crm.requests;
    const headers = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(delivery?.headers[name])]),
    );
    expect(new Webhook(parts.webhookSecret).verify(delivery?.body ?? '', headers)).toMatchObject({
      request_id: (JSON.parse(await res.text()) as { request_id: string }).request_id,
    });
    expect(parts.smtp.messages.length).toBeGreaterThan(0);
  }, 60_000);

  it('answers an MCP tools/list with the SDK bundle netlify.toml adds to the zip', async () => {
    expect(existsSync(join(unpacked, '.generated/mcp-sdk.mjs'))).toBe(true);
    const { default: handler } = (await import(pathToFileURL(join(unpacked, SHIPPED_ENTRY)).href)) as {
      default: (req: Request) => Promise<Response>;
    };
    const res = await handler(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
    );
    const body = (await rpcMessage(res)) as { result: { tools: { name: string }[] } };
    expect(body.result.tools.map((t) => t.name)).toEqual([
      'request_guidance',
      'review_proposal_request',
      'submit_proposal_request',
    ]);
  }, 60_000);

  it('the scheduled function imports without loading anything of use; a run with nothing due loads the store and the CRM signer, nothing that scans or mails', () => {
    const entry = pathToFileURL(join(unpackedScheduled, SCHEDULED_ENTRY)).href;
    const { atImport, afterRun, schedule } = freshProcess(
      unpackedScheduled,
      `const m = await import(${JSON.stringify(entry)});
const atImport = [...loaded];
await m.default();
console.log(JSON.stringify({ atImport, afterRun: loaded, schedule: m.config.schedule }));`,
    ) as { atImport: string[]; afterRun: string[]; schedule: string };
    expect(atImport.some((url) => url === entry)).toBe(true);
    expect(packages(atImport)).toEqual([]);
    expect(schedule).toBe('* * * * *');
    expect(packages(afterRun)).toEqual(['@netlify/blobs', 'standardwebhooks']);
  }, 60_000);

  it('the scheduled function, from its own zip, delivers and confirms what a submit left owed', async () => {
    const { default: handler } = (await import(pathToFileURL(join(unpacked, SHIPPED_ENTRY)).href)) as {
      default: (req: Request) => Promise<Response>;
    };
    const { default: scheduled } = (await import(pathToFileURL(join(unpackedScheduled, SCHEDULED_ENTRY)).href)) as {
      default: () => Promise<void>;
    };
    parts.crm.behave({ kind: 'status', status: 503 });
    const res = await handler(
      new Request('http://127.0.0.1/api/proposal', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify(EXAMPLE_REQUESTS.submit),
      }),
    );
    expect(res.status).toBe(202);
    const { request_id: id } = (await res.json()) as { request_id: string };
    parts.crm.behave(OK);
    // Past the CRM's retry (REDELIVERY_BACKOFF_SECONDS, 60 by default) on Netlify's clock.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 2 * 60_000);
    await scheduled();
    const deliveries = parts.crm.requests.filter((r) => r.path === '/hook');
    expect(deliveries.map((r) => r.headers['webhook-id'])).toEqual([id, id]);
    const headers = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [
        name,
        String(deliveries[1]?.headers[name]),
      ]),
    );
    expect(new Webhook(parts.webhookSecret).verify(deliveries[1]?.body ?? '', headers)).toMatchObject({
      request_id: id,
    });
    expect(mailsTo(parts.smtp.messages, EXAMPLE_REQUESTS.submit.email)).toHaveLength(1);
  }, 60_000);
});
