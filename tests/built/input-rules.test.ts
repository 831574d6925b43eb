/**
 * Input the contract refuses, the same way for summarize and submit: blank or invisible text,
 * control characters in an email address, unknown property names (never echoed), and secrets
 * written as prose.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import handler from '../../netlify/functions/proposal.mts';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { submitRequest } from '../helpers/submit-fixtures.ts';

let blobs: TestBlobs;
beforeAll(async () => {
  blobs = await startBlobs();
});
afterAll(() => blobs.stop());

type Problem = { type: string; status: number; errors?: { pointer: string; detail: string }[] };

async function post(body: Record<string, unknown>): Promise<{ status: number; problem: Problem }> {
  const res = await handler(
    new Request('http://127.0.0.1/api/proposal', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify(body),
    }),
  );
  return { status: res.status, problem: (await res.json()) as Problem };
}

const { website: _website, form_started_at: _startedAt, consent: _consent, ...fields } = submitRequest();
const bodies = {
  summarize: (extra: Record<string, unknown>) => ({ ...fields, ...extra, action: 'summarize' }),
  submit: (extra: Record<string, unknown>) => ({ ...fields, ...extra, action: 'submit', consent: true }),
};

describe.each(Object.entries(bodies))('%s', (_action, body) => {
  it.each([
    ['a name of spaces', { name: ' ' }, '#/name'],
    ['a company of one zero-width space', { company: '\u200b' }, '#/company'],
    ['a business outcome of one tab', { business_outcome: '\t' }, '#/business_outcome'],
    ['a timeline of a byte-order mark and a soft hyphen', { timeline: '\ufeff\u00ad' }, '#/timeline'],
    ['a name with a control character', { name: 'Ann\u0007 Example' }, '#/name'],
  ])('refuses %s (422, field named)', async (_name, fields, pointer) => {
    const { status, problem } = await post(body(fields));
    expect(status).toBe(422);
    expect(problem.errors?.map((e) => e.pointer)).toContain(pointer);
  });

  it.each([
    ['a NUL', 'alex@example.com\u0000'],
    ['a next-line control and a second word', 'alex@example.com\u0085bcc'],
    ['a space', 'alex @example.com'],
    ['a display name', 'Alex <alex@example.com>'],
    ['no domain dot', 'alex@localhost'],
  ])('refuses an email address with %s', async (_name, email) => {
    const { status, problem } = await post(body({ email }));
    expect(status).toBe(422);
    expect(problem.errors).toContainEqual({ pointer: '#/email', detail: expect.stringMatching(/email address/) });
  });

  it('never repeats an unknown property name, which may itself be a secret', async () => {
    const secretName = `sk_live_${'4eC39HqLyjWDarjtT1zdp7dc'}`;
    const { status, problem } = await post(body({ [secretName]: 1 }));
    expect(status).toBe(422);
    expect(JSON.stringify(problem)).not.toContain(secretName);
    expect(problem.errors).toContainEqual({ pointer: '#', detail: expect.stringMatching(/unknown property/) });
  });

  it.each([
    [
      'a password in prose',
      { constraints: 'Our admin password is Tr0ub4dor&123 for now.' },
      '#/constraints',
      'a password',
    ],
    ['pw: shorthand', { blocker: 'Shared login, pw: Summer2024!, on the console.' }, '#/blocker', 'a password'],
    [
      'a quoted passphrase',
      { current_environment: "Use the passphrase 'correct horse battery staple' on the VPN." },
      '#/current_environment',
      'a password',
    ],
    [
      'an IBAN',
      { constraints: 'Invoices are paid from DE89 3704 0044 0532 0130 00.' },
      '#/constraints',
      'a bank account number (IBAN)',
    ],
  ])('refuses %s, naming the field', async (_name, fields, pointer, label) => {
    const { status, problem } = await post(body(fields));
    expect(status).toBe(422);
    expect(problem.type).toMatch(/#problem-sensitive-data$/);
    expect(problem.errors).toContainEqual({ pointer, detail: `looks like ${label}; remove it` });
  });

  it('stores trimmed values: surrounding spaces are not part of a field', async () => {
    const { status } = await post(body({ name: '  Ann Example  ', company: '\tExample GmbH ' }));
    expect(status).toBeLessThan(300);
  });
});
