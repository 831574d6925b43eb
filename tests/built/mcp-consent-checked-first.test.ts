/**
 * Consent over MCP asked once, about a checked draft (issue 44, observations 7, 8 and 9): the doors
 * in-process with a CONSENT_SECRET, each test on a fresh store of a real local Blobs server, the
 * official SDK v2 client (2026-07-28) fetching from them. A draft the pipeline refuses is refused
 * before any elicitation and stores no grant; a grant holds an HMAC of the key, never the key; a
 * decline is a result remembered for the draft and key, also against a client that does not ask; a
 * cancel is a result, not a loop.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_REQUESTS } from '../../src/contract/contract.ts';
import type { ProposalsStore } from '../../src/proposal/store/blobs.ts';
import { rawStore, startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { functionDoors, type Doors } from '../helpers/function-doors.ts';
import { envOf } from '../helpers/submit-fixtures.ts';

const SECRET = randomBytes(32).toString('base64url');
const CLIENT = { name: 'checked-first-host', version: '2.0.1' };

let blobs: TestBlobs;
beforeAll(async () => {
  blobs = await startBlobs();
});
afterAll(async () => blobs?.stop());

/** The doors as deployed with a consent secret, on a store of this test's own. */
function doorsOnFreshStore(): { doors: Doors; store: ProposalsStore } {
  const store = blobs.freshStore();
  return { doors: functionDoors({ store }, envOf({ CONSENT_SECRET: SECRET })), store };
}

/** Every blob name under `prefix`, and each blob's text. */
async function blobsUnder(store: ProposalsStore, prefix: string): Promise<{ key: string; text: string }[]> {
  const raw = rawStore(store);
  const { blobs: listed } = await raw.list({ prefix });
  return Promise.all(listed.map(async ({ key }) => ({ key, text: (await raw.get(key, { type: 'text' })) ?? '' })));
}

type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };

/** A 2026-07-28 client; `elicitation` is what it declares, `answer` plays the person (counted in `asked`). */
async function client(
  doors: Doors,
  elicitation?: { form?: Record<string, never>; url?: Record<string, never> },
  answer?: () => Answer,
) {
  const asked: Record<string, unknown>[] = [];
  const c = new Client(CLIENT, {
    versionNegotiation: { mode: { pin: '2026-07-28' } },
    ...(elicitation && { capabilities: { elicitation } }),
  });
  if (elicitation)
    c.setRequestHandler('elicitation/create', (async (request: { params: Record<string, unknown> }) => {
      asked.push(request.params);
      return answer?.() ?? { action: 'accept', content: { agree: true } };
    }) as never);
  await c.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => doors.mcp(new Request(url, init)),
    }),
  );
  return { client: c, asked };
}

function submitArguments(company: string, key = randomUUID()): Record<string, unknown> {
  const { action: _action, ...fields } = EXAMPLE_REQUESTS.submit;
  return { ...fields, company, email: `${randomUUID()}@example.com`, idempotency_key: key };
}

const call = (c: Client, args: Record<string, unknown>) =>
  c.callTool({ name: 'submit_proposal_request', arguments: args }) as Promise<{
    isError?: boolean;
    content: { text: string }[];
  }>;
const textOf = (result: { content: { text: string }[] }) =>
  JSON.parse(result.content[0]!.text) as Record<string, unknown>;

describe('observation 9: the draft is checked before consent is asked', () => {
  const { name: _name, ...nameless } = submitArguments('Nameless Ltd');
  const problemOf = (type: string, more: Record<string, unknown> = {}) => ({
    type: expect.stringMatching(new RegExp(`#problem-${type}$`)),
    ...more,
  });
  // The pipeline's own refusal of consent false, not a person's answer: it points at the field.
  const consentFalse = problemOf('consent-required', { errors: [{ pointer: '#/consent', detail: 'must be true' }] });
  const drafts: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['missing its name', nameless, problemOf('invalid-request')],
    [
      'holding a secret',
      { ...submitArguments('Secret Ltd'), constraints: 'Our key is AKIAIOSFODNN7EXAMPLE.' },
      problemOf('sensitive-data'),
    ],
    ['with consent false', { ...submitArguments('No Consent Ltd'), consent: false }, consentFalse],
    // Observation 7: arguments that are only an idempotency key (no consent either, refused first).
    ['of only an idempotency key', { idempotency_key: randomUUID() }, consentFalse],
  ];
  for (const mode of ['form', 'url'] as const)
    for (const [what, args, expected] of drafts)
      it(`${mode} elicitation, a draft ${what}: refused with its problem, nobody asked, no grant stored`, async () => {
        const { doors, store } = doorsOnFreshStore();
        const { client: c, asked } = await client(doors, mode === 'form' ? { form: {} } : { url: {} });
        const result = await call(c, args);
        await c.close();
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatchObject(expected);
        expect(asked).toEqual([]);
        expect(await blobsUnder(store, 'grants/')).toEqual([]);
        expect(await blobsUnder(store, 'grant-keys/')).toEqual([]);
        expect(await blobsUnder(store, 'requests/')).toEqual([]);
      });
});

describe('observation 7: grants', () => {
  it('one grant per draft and key, found through an HMAC of the key: neither the key nor the address is stored', async () => {
    const { doors, store } = doorsOnFreshStore();
    // The person opens the page but never presses "Yes": the grant stays, asked again on each call.
    const { client: c, asked } = await client(doors, { url: {} }, () => ({ action: 'accept' }));
    const key = randomUUID();
    const args = submitArguments('Grant Keeper Ltd', key);
    for (let i = 0; i < 2; i++) {
      const result = await call(c, args);
      expect(textOf(result)).toMatchObject({ type: expect.stringMatching(/#problem-consent-required$/) });
    }
    await c.close();
    expect(asked).toHaveLength(2);
    expect(asked[1]!['url']).toBe(asked[0]!['url']);
    const grants = await blobsUnder(store, 'grants/');
    const pointers = await blobsUnder(store, 'grant-keys/');
    expect(grants).toHaveLength(1);
    expect(pointers).toHaveLength(1);
    expect(pointers[0]!.key).toMatch(/^grant-keys\/[0-9a-f]{64}$/);
    for (const { key: name, text } of [...grants, ...pointers]) {
      expect(name).not.toContain(key);
      expect(text).not.toContain(key);
      expect(text).not.toContain(String(args['email']));
    }
    expect(JSON.parse(grants[0]!.text)).toMatchObject({ pointer: pointers[0]!.key });
    expect(await blobsUnder(store, 'requests/')).toEqual([]);
  });
});

describe('observation 9: a decline or cancel of the URL is a result', () => {
  it('a declined URL: the tool says consent was declined, nothing is stored, and the draft is not asked about again', async () => {
    const { doors, store } = doorsOnFreshStore();
    const { client: c, asked } = await client(doors, { url: {} }, () => ({ action: 'decline' }));
    const args = submitArguments('Url Decline Ltd');
    const first = await call(c, args);
    expect(asked).toHaveLength(1);
    expect(first.isError).toBe(true);
    expect(textOf(first)).toMatchObject({
      status: 422,
      type: expect.stringMatching(/#problem-consent-required$/),
      detail: expect.stringMatching(/did not agree.*Nothing was submitted/),
    });
    // The same draft and key again: the decline stands, and the person is not asked again.
    const again = await call(c, args);
    await c.close();
    expect(asked).toHaveLength(1);
    expect(textOf(again)).toMatchObject({
      type: expect.stringMatching(/#problem-consent-required$/),
      detail: expect.stringMatching(/declined/),
    });
    expect(await blobsUnder(store, 'requests/')).toEqual([]);
    expect(await blobsUnder(store, 'keys/')).toEqual([]);
  });

  it('a cancelled URL: answered once per call (no loop), nothing is stored', async () => {
    const { doors, store } = doorsOnFreshStore();
    const { client: c, asked } = await client(doors, { url: {} }, () => ({ action: 'cancel' }));
    const args = submitArguments('Url Cancel Ltd');
    const first = await call(c, args);
    expect(asked).toHaveLength(1);
    expect(first.isError).toBe(true);
    expect(textOf(first)).toMatchObject({
      status: 422,
      type: expect.stringMatching(/#problem-consent-required$/),
      detail: expect.stringMatching(/closed the question.*Nothing was submitted/),
    });
    // A cancel answers nothing: a new call may ask again, once.
    await call(c, args);
    await c.close();
    expect(asked).toHaveLength(2);
    expect(await blobsUnder(store, 'requests/')).toEqual([]);
  });
});

describe('observation 8: a declined consent form is remembered', () => {
  it('the same draft and key sent again by a client without elicitation is refused, not submitted agent_asserted', async () => {
    const { doors, store } = doorsOnFreshStore();
    const args = submitArguments('Form Decline Ltd');
    const asking = await client(doors, { form: {} }, () => ({ action: 'decline' }));
    const declined = await call(asking.client, args);
    await asking.client.close();
    expect(asking.asked).toHaveLength(1);
    expect(textOf(declined)).toMatchObject({ type: expect.stringMatching(/#problem-consent-required$/) });

    const plain = await client(doors);
    const retried = await call(plain.client, args);
    await plain.client.close();
    expect(retried.isError).toBe(true);
    expect(textOf(retried)).toMatchObject({
      status: 422,
      type: expect.stringMatching(/#problem-consent-required$/),
      detail: expect.stringMatching(/declined/),
    });
    expect(await blobsUnder(store, 'requests/')).toEqual([]);

    // Another key for the same draft is a new request: a client without elicitation submits it as before.
    const other = await client(doors);
    const fresh = await call(other.client, { ...args, idempotency_key: randomUUID() });
    await other.client.close();
    expect(textOf(fresh)).toMatchObject({ status: 'received' });
    const [record] = (await blobsUnder(store, 'requests/')).map(({ text }) => JSON.parse(text));
    expect(record.consent).toMatchObject({ method: 'agent_asserted', vouched_by: 'agent' });
  });
});
