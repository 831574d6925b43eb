import { describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { readDist, fileForPath } from '../../scripts/local-site/dist.ts';
import { DEFAULT_RETENTION_DAYS } from '../../src/contract/data-handling.ts';

const addFormats = (addFormatsModule as unknown as { default: typeof addFormatsModule }).default;
const openapi = JSON.parse(readDist('openapi.json'));
const contract = JSON.parse(readDist('api/proposal.json'));

describe('/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (independent validator)', async () => {
    const result = await new Validator().validate(openapi);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(openapi.openapi).toBe('3.1.0');
  });

  it("describes the operations, one request schema per action (the three of agents and the confirmation page's three), and the problem responses", () => {
    expect(Object.keys(openapi.paths)).toEqual(['/api/capabilities', '/api/proposal']);
    expect(Object.keys(openapi.paths['/api/proposal'])).toEqual(['get', 'options', 'post']);
    const body = openapi.paths['/api/proposal'].post.requestBody.content['application/json'].schema;
    expect(body.discriminator.propertyName).toBe('action');
    expect(Object.keys(body.discriminator.mapping)).toEqual([
      'guide',
      'summarize',
      'submit',
      'check_link',
      'confirm_request',
      'deny_request',
    ]);
    const responses = openapi.paths['/api/proposal'].post.responses;
    // Each action's 200 body has a schema: guide, summarize, check_link, and the two answers'.
    expect(responses['200'].content['application/json'].schema.oneOf).toEqual(
      ['GuideResult', 'SummarizeResult', 'LinkCheckResult', 'ConsentAnswerResult'].map((name) => ({
        $ref: `#/components/schemas/${name}`,
      })),
    );
    expect(responses['200'].description).toMatch(/check_link/);
    for (const status of ['400', '409', '413', '415', '422', '500']) {
      expect(responses[status].content['application/problem+json']).toBeDefined();
    }
  });

  it("maps each action to the request schema whose action it is, and that schema's example passes it", () => {
    const body = openapi.paths['/api/proposal'].post.requestBody.content['application/json'];
    const refs = body.schema.oneOf.map((s: { $ref: string }) => s.$ref);
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    for (const [action, ref] of Object.entries(body.schema.discriminator.mapping as Record<string, string>)) {
      expect(refs).toContain(ref);
      const schema = openapi.components.schemas[ref.replace('#/components/schemas/', '')];
      expect(schema.properties.action.const, ref).toBe(action);
      const example = contract.actions[action].example_request;
      expect(ajv.validate(schema, example), `${action}: ${JSON.stringify(ajv.errors)}`).toBe(true);
    }
  });
});

/** The component an action's request schema is published as (src/lib/agents/openapi.ts). */
const schemaName = (action: string) =>
  Object.values(
    openapi.paths['/api/proposal'].post.requestBody.content['application/json'].schema.discriminator.mapping as Record<
      string,
      string
    >,
  )
    .map((ref) => ref.replace('#/components/schemas/', ''))
    .find((name) => openapi.components.schemas[name].properties.action.const === action)!;

describe('what the contract added: check_link and an optional phone', () => {
  it('check_link is described in the contract and /openapi.json alike: its request, its statuses and its 200 body', () => {
    const inContract = contract.actions.check_link;
    expect(inContract.request_schema.required).toEqual(['action', 'request_id', 'token', 'answer']);
    expect(Object.keys(inContract.result.status)).toEqual(['valid', 'used', 'expired']);
    expect(inContract.description).toMatch(/consent text/);
    const { $schema: _dialect, ...published } = inContract.request_schema;
    expect(openapi.components.schemas[schemaName('check_link')]).toEqual(published);
    const result = openapi.components.schemas.LinkCheckResult;
    const [named, erased] = result.oneOf;
    expect(named.required).toEqual(['status', 'company', 'received_at', 'choices']);
    expect(named.properties.status.enum).toEqual(['valid', 'used', 'expired']);
    expect(named.properties.answered.enum).toEqual(['confirm', 'deny']);
    expect(Object.keys(named.properties)).toContain('consent_text');
    expect(erased).toMatchObject({ required: ['status', 'answered'], additionalProperties: false });
    expect(openapi.components.schemas.ConsentAnswerResult.properties.status.enum).toEqual(
      Object.keys(contract.actions.confirm_request.result.status),
    );
  });

  it('phone is an optional contact field of summarize and submit, in both documents, and no field of guide', () => {
    for (const action of ['summarize', 'submit']) {
      for (const schema of [contract.actions[action].request_schema, openapi.components.schemas[schemaName(action)]]) {
        expect(schema.properties.phone, action).toMatchObject({ type: 'string', maxLength: 40 });
        expect(schema.required, action).not.toContain('phone');
      }
    }
    expect(contract.actions.guide.request_schema.properties.phone).toBeUndefined();
  });
});

describe('/.well-known/api-catalog (RFC 9727)', () => {
  it('is a linkset with one anchor per API: the HTTP APIs described by OpenAPI, MCP by its server card', () => {
    expect(fileForPath('/.well-known/api-catalog')).toBe('.well-known/api-catalog.json');
    const catalog = JSON.parse(readDist('.well-known/api-catalog.json'));
    expect(catalog.linkset.map((e: { anchor: string }) => new URL(e.anchor).pathname)).toEqual([
      '/api/capabilities',
      '/api/proposal',
      '/mcp',
    ]);
    for (const entry of catalog.linkset) {
      const mcp = new URL(entry.anchor).pathname === '/mcp';
      expect(new URL(entry['service-desc'][0].href).pathname).toBe(mcp ? '/mcp/server-card' : '/openapi.json');
      expect(new URL(entry['service-doc'][0].href).pathname).toBe('/agents');
    }
  });
});

describe('the contract explains itself to an agent', () => {
  it('states idempotency, result meanings, error format, limits and a version', () => {
    expect(contract.contract_version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(contract.idempotency.retention_hours).toBe(24);
    expect(Object.keys(contract.actions.submit.result.status)).toEqual([
      'received',
      'pending',
      'failed',
      'awaiting_confirmation',
    ]);
    expect(contract.actions.submit.result.status.awaiting_confirmation).toMatch(/Yes, this was me/);
    // A pending request is delivered without the sender, and a retry stays safe.
    expect(contract.actions.submit.result.status.pending).toMatch(/delivered automatically, without any retry/);
    expect(contract.actions.submit.result.status.pending).toMatch(/same idempotency key and request is still safe/);
    expect(contract.actions.submit.result.confirmation_email.sent).toMatch(/Only this value/);
    expect(contract.errors.format).toContain('RFC 9457');
    expect(contract.limits.max_body_bytes).toBeGreaterThan(1000);
  });

  it('says what is stored, for how long and how to have it deleted, on the contract, /agents and /proposal', () => {
    const { stored, retention, erasure, retention_days } = contract.data_handling;
    expect(stored).toMatch(/Summarize stores nothing, and guide stores nothing about you: .*topic words only/);
    // The build ran without RETENTION_DAYS: the finite default.
    expect(retention_days).toBe(DEFAULT_RETENTION_DAYS);
    expect(retention).toMatch(
      /deleted 365 days after it arrived \(the default period\), by a scheduled clean-up that runs every minute.*kept 24 hours, only as a hash, and deleted with its request/,
    );
    expect(erasure).toMatch(/^To have a request deleted, write to [^\s@]+@[^\s@]+ with its request_id/);
    const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#39;|&apos;/g, "'");
    for (const page of ['agents.html', 'agents.md']) {
      const body = page.endsWith('.html') ? text(readDist(page)) : readDist(page);
      for (const sentence of [stored, retention, erasure]) expect(body, page).toContain(sentence);
    }
    // The workspace says the same facts in a person's words: the period, the topic words, the address.
    const email = /write to ([^\s@]+@[^\s@]+) with/.exec(erasure)![1]!;
    for (const page of ['proposal.html', 'proposal.md']) {
      const body = page.endsWith('.html') ? text(readDist(page)) : readDist(page);
      expect(body, page).toContain(`It is deleted ${retention_days} days after it arrived, or sooner if you ask`);
      expect(body, page).toContain('only its topic words are counted');
      expect(body, page).toContain(email);
    }
  });

  // The contract's URIs and the page's row ids both come from src/contract/http.ts: what is checked
  // is that the page a problem's URI points at shows that problem, its status and its title.
  it("documents every problem type on /agents in the row its URI points at, with the contract's status and title", () => {
    const agents = readDist('agents.html');
    for (const { type, status, title } of contract.errors.types as { type: string; status: number; title: string }[]) {
      const anchor = new URL(type).hash.slice(1);
      const row = new RegExp(`<tr id="${anchor}">(.*?)</tr>`).exec(agents)?.[1];
      const text = (html: string) =>
        html
          .replace(/<[^>]+>/g, '')
          .replace(/&#39;|&apos;/g, "'")
          .replace(/&quot;/g, '"')
          .replace(/&amp;/g, '&');
      const cells = [...(row ?? '').matchAll(/<td>(.*?)<\/td>/g)].map((m) => text(m[1]!));
      expect(cells.slice(0, 2), anchor).toEqual([anchor.replace(/^problem-/, ''), String(status)]);
      // The meaning cell opens with the title; some go on with advice.
      expect(cells[2]?.slice(0, title.length), anchor).toBe(title);
    }
  });
});

describe('the capabilities schema in the OpenAPI description', () => {
  // The description embeds the published schema by construction (src/lib/agents/openapi.ts); what
  // can break is the embedding: the document the site serves must pass the schema OpenAPI gives it.
  it('accepts the capabilities document the site publishes, and refuses one without its required fields', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    ajv.addSchema({ ...openapi, $id: 'https://openapi.test/openapi.json' });
    const response = openapi.paths['/api/capabilities'].get.responses['200'].content['application/json'].schema;
    const validate = ajv.compile({ $ref: `https://openapi.test/openapi.json${response.$ref}` });
    const published = JSON.parse(readDist('api/capabilities.json'));
    expect(validate(published), JSON.stringify(validate.errors)).toBe(true);
    const { contact: _contact, ...withoutContact } = published;
    expect(validate(withoutContact)).toBe(false);
  });
});
