import { consentDigest } from '../../src/contract/consent.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import handler, { config } from '../../netlify/functions/proposal.mts';
import knowledgeJson from '../../.generated/knowledge.json' with { type: 'json' };
import { RATE_LIMIT, EXAMPLE_REQUESTS } from '../../src/contract/contract.ts';
import { MAX_BODY_BYTES } from '../../src/contract/fields.ts';
import { findViolations } from '../../src/lib/content/rules.ts';
import { readDist } from '../../scripts/local-site/dist.ts';
import { DOCUMENT_PATHS } from '../../src/contract/paths.ts';
import { startBlobs, type TestBlobs } from '../helpers/blobs.ts';
import { MIN_FILL_MS } from '../../src/proposal/actions/pipeline.ts';
import { functionDoors } from '../helpers/function-doors.ts';

const API = 'http://127.0.0.1/api/proposal';

const post = (body: unknown, headers: Record<string, string> = {}) =>
  handler(
    new Request(API, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );

const guideRequest = {
  action: 'guide',
  question: 'We need to migrate our on-premises data center to the cloud and cut costs.',
  industry: 'logistics',
  company_size: '201-1000',
  primary_need: 'cloud-engineering',
};

async function expectProblem(res: Response, status: number, type: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  const body = (await res.json()) as {
    type: string;
    title: string;
    status: number;
    detail: string;
    errors?: { pointer: string; detail: string }[];
  };
  expect(body.type).toBe(`${knowledgeJson.urls.agents}#problem-${type}`);
  expect(body.status).toBe(status);
  expect(body.title.length).toBeGreaterThan(0);
  expect(body.detail.length).toBeGreaterThan(0);
  expect(JSON.stringify(body)).not.toMatch(/at \w+ \(|\.ts:\d+/); // no stack trace
  return body;
}

describe('guide', () => {
  it('returns non-binding guidance tailored from the content, deterministic for equal input', async () => {
    const res = await post(guideRequest);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = await res.json();
    expect(body).toEqual(await (await post(guideRequest)).json());
    expect(body.non_binding).toBe(true);
    expect(body.capabilities[0].id).toBe('cloud-engineering');
    expect(body.audience.id).toBe('established-businesses');
    expect(knowledgeJson.engagement_models.map((m) => m.id)).toContain(body.engagement_model.id);
    expect(body.cloud_program_context.summary).toContain('may qualify');
    expect(body.cloud_program_context.disclaimer).toBe(knowledgeJson.program_support.disclaimer);
    expect(body.prepare).toEqual(knowledgeJson.useful_intake_fields);
    expect(body.proposal_workspace).toBe(knowledgeJson.urls.proposal_page);
    expect(findViolations(JSON.stringify(body), knowledgeJson.partner)).toEqual([]);
  });

  it('suggests an assessment when the need is unclear', async () => {
    const body = await (
      await post({ ...guideRequest, question: 'Where do we start?', primary_need: 'not-sure', company_size: '1-10' })
    ).json();
    expect(body.engagement_model.id).toBe('assessment');
    expect(body.audience.id).toBe('startups');
  });

  it('matches the example response published in the contract', async () => {
    const contract = JSON.parse(readDist('api/proposal.json'));
    const body = await (await post(EXAMPLE_REQUESTS.guide)).json();
    expect(body).toEqual(contract.actions.guide.example_response.body);
  });
});

describe('summarize', () => {
  it('returns an overview, the missing recommended fields and submitted: false', async () => {
    const res = await post({ action: 'summarize', business_outcome: 'Launch in the EU', timeline: 'Q2' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.submitted).toBe(false);
    expect(body.ready_to_submit).toBe(false);
    expect(body.overview.intake.business_outcome).toBe('Launch in the EU');
    expect(body.missing_fields.map((f: { field: string }) => f.field)).toEqual([
      'current_environment',
      'blocker',
      'constraints',
      'engagement_model',
    ]);
    expect(body.markdown).toContain('# Proposal request overview');
    expect(body.warnings.length).toBeGreaterThan(0);
  });

  it('is ready to submit when every required field and contact detail is present', async () => {
    const body = await (await post({ ...EXAMPLE_REQUESTS.submit, action: 'summarize', consent: undefined })).json();
    expect(body.ready_to_submit).toBe(true);
    expect(body.missing_fields).toEqual([]);
  });
});

describe('bad input gets a clear problem, never a 5xx', () => {
  it('malformed JSON: 400', async () => {
    await expectProblem(await post('{"action": "guide",'), 400, 'malformed-json');
  });

  it('missing or unknown action: 422 naming the allowed ones', async () => {
    for (const body of [{}, { action: 'delete' }, { action: 7 }]) {
      const problem = await expectProblem(await post(body), 422, 'unknown-action');
      const allowed = 'guide, summarize, submit, check_link, confirm_request, deny_request';
      expect(problem.detail).toContain(allowed);
      expect(problem.errors).toEqual([{ pointer: '#/action', detail: `must be one of: ${allowed}` }]);
    }
  });

  it('unknown fields, wrong types and over-long strings: 422 with pointers', async () => {
    const problem = await expectProblem(
      await post({ ...guideRequest, extra: 1, email: 'a@b.example', company_size: 12, industry: 'x'.repeat(201) }),
      422,
      'invalid-request',
    );
    const pointers = problem.errors!.map((e) => e.pointer);
    // A field of another action is named; a name the contract does not know is not repeated.
    expect(pointers).toEqual(expect.arrayContaining(['#', '#/email', '#/company_size', '#/industry']));
    expect(problem.errors!.find((e) => e.pointer === '#')!.detail).toMatch(/unknown property/);
    expect(JSON.stringify(problem)).not.toContain('extra');
    expect(problem.errors!.find((e) => e.pointer === '#/industry')!.detail).toBe('must be at most 200 characters');
    expect(JSON.stringify(problem)).not.toContain('xxxxxxxx');
  });

  it('a body over the limit: 413, before parsing, with or without Content-Length', async () => {
    const big = JSON.stringify({ ...guideRequest, question: 'a'.repeat(MAX_BODY_BYTES) });
    await expectProblem(await post(big), 413, 'payload-too-large');
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const res = await handler(
      new Request(API, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
    );
    await expectProblem(res, 413, 'payload-too-large');
  });

  it('other media types: 415', async () => {
    await expectProblem(
      await post(JSON.stringify(guideRequest), { 'content-type': 'text/plain' }),
      415,
      'unsupported-media-type',
    );
  });

  it('__proto__ and constructor keys are refused and pollute nothing', async () => {
    const res = await post(
      '{"action":"summarize","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    );
    const problem = await expectProblem(res, 422, 'invalid-request');
    expect(problem.errors!.map((e) => e.pointer)).toEqual(['#']);
    expect(JSON.stringify(problem)).not.toMatch(/__proto__|constructor/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('secrets are refused with the field and kind named, never the value', async () => {
    const key = ['AKIA', 'Z7QW', 'ER3T', 'Y5UI', 'OP2L'].join('');
    const res = await post({ action: 'summarize', current_environment: `We deploy with key ${key} from CI.` });
    const problem = await expectProblem(res, 422, 'sensitive-data');
    expect(problem.errors).toEqual([
      { pointer: '#/current_environment', detail: expect.stringContaining('cloud access key') },
    ]);
    expect(JSON.stringify(problem)).not.toContain(key);
  });

  it('ordinary security talk passes', async () => {
    const res = await post({
      action: 'summarize',
      constraints: 'Our password policy needs 14 characters; we rotate access keys and use Secrets Manager for SOC 2.',
    });
    expect(res.status).toBe(200);
  });

  it('takes no GET (the CDN serves the contract file); DELETE is 405 with Allow', async () => {
    expect(config.method).not.toContain('GET');
    const del = await handler(new Request(API, { method: 'DELETE' }));
    await expectProblem(del, 405, 'method-not-allowed');
    expect(del.headers.get('allow')).toContain('POST');
  });

  it('answers CORS preflight', async () => {
    const res = await handler(new Request(API, { method: 'OPTIONS' }));
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toContain('idempotency-key');
  });

  it('submit without consent: 422 saying why; without Idempotency-Key: 400', async () => {
    const noConsent = await expectProblem(
      await post({ ...EXAMPLE_REQUESTS.submit, consent: 'yes' }),
      422,
      'consent-required',
    );
    expect(noConsent.errors).toEqual([{ pointer: '#/consent', detail: 'must be true' }]);
    const noKey = await expectProblem(await post(EXAMPLE_REQUESTS.submit), 400, 'missing-idempotency-key');
    expect(noKey.detail).toMatch(/Idempotency-Key/);
  });
});

// One Blobs server for the file: the handler opens its store once, on its first submit.
let blobs: TestBlobs;
beforeAll(async () => {
  blobs = await startBlobs();
});
afterAll(async () => blobs.stop());

describe('property: any input gives a 2xx or a 4xx problem, never a 5xx or a throw', () => {
  const check = async (res: Response) => {
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(500);
    if (res.status >= 400)
      expect(res.headers.get('content-type')).toMatch(/^(application\/problem\+json|text\/html); charset=utf-8$/);
  };

  it('any JSON value', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => check(await post(JSON.stringify(value)))),
      { numRuns: 300 },
    );
  });

  it('any object with an action and arbitrary fields', async () => {
    const action = fc.constantFrom('guide', 'summarize', 'submit');
    await fc.assert(
      fc.asyncProperty(action, fc.dictionary(fc.string(), fc.jsonValue()), async (a, fields) =>
        check(await post({ ...fields, action: a }, { 'idempotency-key': 'prop-test' })),
      ),
      { numRuns: 2_000 },
    );
  });

  it('any string body and any header mix', async () => {
    const headerName = fc.constantFrom(
      'content-type',
      'content-length',
      'accept',
      'idempotency-key',
      'x-forwarded-for',
    );
    const headerValue = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) });
    await fc.assert(
      fc.asyncProperty(
        fc.string(),
        fc.dictionary(headerName, headerValue),
        fc.constantFrom('POST', 'PUT', 'GET', 'DELETE'),
        async (body, headers, method) => {
          let req: Request;
          try {
            req = new Request(API, { method, headers, ...(method === 'GET' ? {} : { body }) });
          } catch {
            return; // the platform itself would refuse such a request
          }
          await check(await handler(req));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('no-JavaScript form posts', () => {
  it('a urlencoded guide post gets a readable HTML page', async () => {
    const res = await handler(
      new Request(API, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(guideRequest),
      }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html).toContain('<h1>Guidance for your question</h1>');
    expect(html).toContain('may qualify');
    expect(html).toContain('href="/proposal"');
  });

  it('errors in a form post come back as an HTML page naming the fields', async () => {
    const res = await handler(
      new Request(API, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ action: 'guide', question: '<script>x</script>' }),
      }),
    );
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('Industry');
    expect(html).not.toContain('<script>');
  });
});

describe('the contract is one source', () => {
  const contract = JSON.parse(readDist('api/proposal.json'));

  it('documents the rate limit the function is configured with', () => {
    expect(config.rateLimit).toEqual({
      windowLimit: RATE_LIMIT.requests_per_window,
      windowSize: RATE_LIMIT.window_seconds,
      aggregateBy: [...RATE_LIMIT.aggregate_by],
    });
    expect(contract.limits.rate_limit).toEqual(RATE_LIMIT);
    expect(contract.limits.max_body_bytes).toBe(MAX_BODY_BYTES);
  });

  // Netlify reads config.path statically, so the function repeats the literal of the paths module.
  it('serves the function at the published proposal and MCP paths', () => {
    expect(config.path).toEqual([DOCUMENT_PATHS.proposalApi, DOCUMENT_PATHS.mcp, `${DOCUMENT_PATHS.consentPages}/*`]);
    expect(knowledgeJson.urls.proposal_api).toBe(new URL(DOCUMENT_PATHS.proposalApi, knowledgeJson.urls.home).href);
  });

  it('publishes the consent text and the enums of the content', () => {
    expect(contract.consent).toMatchObject(knowledgeJson.consent);
    expect(contract.consent.digest).toBe(consentDigest(knowledgeJson.consent.text));
    expect(contract.actions.submit.request_schema.properties.engagement_model.enum).toEqual(
      knowledgeJson.engagement_models.map((m) => m.id),
    );
    expect(contract.actions.guide.request_schema.properties.primary_need.enum).toEqual([
      ...knowledgeJson.capabilities.map((c) => c.id),
      'not-sure',
    ]);
    expect(contract.actions.submit.request_schema.required).toEqual(
      expect.arrayContaining(['consent', 'name', 'email', 'company']),
    );
  });

  it('its example requests are accepted by the function', async () => {
    expect((await post(EXAMPLE_REQUESTS.summarize)).status).toBe(200);
    expect(contract.actions.summarize.example_response.body).toEqual(
      await (await post(EXAMPLE_REQUESTS.summarize)).json(),
    );
  });
});

describe('abuse protections on submit', () => {
  it('a filled honeypot field is refused by the schema (maxLength 0), and nothing is submitted', async () => {
    const res = await post(
      { ...EXAMPLE_REQUESTS.submit, website: 'http://spam.example' },
      { 'idempotency-key': 'honeypot-1' },
    );
    const problem = await expectProblem(res, 422, 'invalid-request');
    expect(problem.errors).toEqual([{ pointer: '#/website', detail: 'must be at most 0 characters' }]);
  });

  it('a form filled faster than a person can is refused, to the millisecond of the minimum fill time', async () => {
    const at = new Date('2026-11-27T10:00:00Z');
    const { http } = functionDoors({ now: () => at });
    const send = (filledInMs: number) =>
      http(
        new Request(API, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': `fill-time-${filledInMs}` },
          body: JSON.stringify({ ...EXAMPLE_REQUESTS.submit, form_started_at: at.getTime() - filledInMs }),
        }),
      );
    await expectProblem(await send(500), 422, 'spam-suspected');
    await expectProblem(await send(MIN_FILL_MS - 1), 422, 'spam-suspected');
    expect((await send(MIN_FILL_MS)).status).toBe(201);
    // A browser clock ahead of the server's is no evidence of automation.
    expect((await send(-60_000)).status).toBe(201);
  });

  it('a malformed Idempotency-Key is refused without echoing it', async () => {
    const res = await post(EXAMPLE_REQUESTS.submit, { 'idempotency-key': 'k'.repeat(256) });
    const problem = await expectProblem(res, 400, 'invalid-idempotency-key');
    expect(JSON.stringify(problem)).not.toContain('kkkkkkkk');
  });

  it('a sent Idempotency-Key is held to its rules on guide and summarize too (as /openapi.json says)', async () => {
    await expectProblem(
      await post(EXAMPLE_REQUESTS.guide, { 'idempotency-key': 'k'.repeat(256) }),
      400,
      'invalid-idempotency-key',
    );
    await expectProblem(
      await post(EXAMPLE_REQUESTS.summarize, { 'idempotency-key': 'two words' }),
      400,
      'invalid-idempotency-key',
    );
    expect((await post(EXAMPLE_REQUESTS.guide, { 'idempotency-key': 'guide-key-1' })).status).toBe(200);
  });
});

describe('the workspace form without JavaScript', () => {
  const formPost = (fields: Record<string, string>) =>
    handler(
      new Request(API, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      }),
    );

  it('asks for guidance even when later steps are filled in and consent is ticked', async () => {
    const res = await formPost({
      ...guideRequest,
      business_outcome: 'Launch in Q3',
      name: 'Ann',
      consent: 'on',
      consent_version: '2026-11-01',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Guidance for your question');
  });

  it('JSON clients still get 422 for fields of another action', async () => {
    await expectProblem(await post({ ...guideRequest, business_outcome: 'Launch in Q3' }), 422, 'invalid-request');
  });
});

describe('minimum fill time', () => {
  it('does not refuse a browser whose clock runs ahead of the server', async () => {
    const res = await post(
      { ...EXAMPLE_REQUESTS.submit, form_started_at: Date.now() + 60_000 },
      { 'idempotency-key': `ahead-${Date.now()}` },
    );
    expect(res.status).toBe(201);
  });

  it('a form post whose hidden key breaks the header rules still submits, keyed by its content', async () => {
    const fields = Object.fromEntries(
      Object.entries(EXAMPLE_REQUESTS.submit).map(([k, v]) => [k, k === 'consent' ? 'on' : String(v)]),
    );
    const send = () =>
      handler(
        new Request(API, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ ...fields, idempotency_key: 'clé\nnouvelle' }),
        }),
      );
    const first = await send();
    expect(first.status).toBe(201);
    const again = await send();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});
