/**
 * The function exactly as the packager ships it (netlify.toml's [functions] settings, including
 * the traced files it leaves out), unpacked into its own temp folder and run from there: a submit
 * must store the request and send the notice through nodemailer, and an MCP call must load the
 * bundled SDK the zip carries as a file of its own, so every module the ESM runtime loads is in it.
 */
import { randomUUID } from 'node:crypto';
import { rpcMessage } from '../helpers/mcp-reply.ts';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_REQUESTS } from '../../src/contract/contract.ts';
import { functionsSettings, packFunction, SHIPPED_ENTRY } from '../../scripts/shipped-function.ts';
import { useLoopbackParts } from '../helpers/loopback-parts.ts';

const parts = useLoopbackParts();
const work = mkdtempSync(join(tmpdir(), 'kestrel-shipped-'));
let unpacked = '';
const saved = { SMTP_URL: process.env['SMTP_URL'], MAIL_FROM: process.env['MAIL_FROM'] };

beforeAll(async () => {
  unpacked = (await packFunction(work, 'none')).path;
  process.env['SMTP_URL'] = parts.smtp.url;
  process.env['MAIL_FROM'] = 'Kestrel Cloud <no-reply@kestrel.example>';
}, 120_000);
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

  it('accepts a submit and emails the notice through nodemailer', async () => {
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
});
