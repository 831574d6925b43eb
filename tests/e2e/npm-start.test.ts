import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicKey, generateKeyPairSync, randomUUID, sign, verify } from 'node:crypto';
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { freePort } from '../../scripts/free-port.ts';
import { startSite, type RunningSite } from '../../scripts/local-site/start-site.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { EXAMPLE_REQUESTS } from '../../src/contract/contract.ts';
import { responseChecker } from '../helpers/openapi-responses.ts';
import type { Schema } from '../helpers/openapi-arbitraries.ts';

// `npm start` as a newcomer runs it: build, then netlify serve with the function, offline,
// with an SMTP server on loopback so confirmation emails are really sent.
let site: RunningSite;
let smtp: TestSmtp;
/** An Ed25519 key pair as mcp-publisher uses one: the public half in base64, as the registry's docs derive it. */
const registryKey = (() => {
  const pair = generateKeyPairSync('ed25519');
  const raw = pair.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  return { privateKey: pair.privateKey, publicKey: raw.toString('base64') };
})();
/** A port another process holds: the first one offered to npm start, as when a race is lost. */
let taken: Server;
const offered: number[] = [];

beforeAll(async () => {
  smtp = await startSmtp();
  // Holds the port, refusing whatever connects (npm start's readiness probe, on the first try).
  taken = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const takenPort = (taken.address() as { port: number }).port;
  const choose = async () => {
    const port = offered.length === 0 ? takenPort : await freePort();
    offered.push(port);
    return port;
  };
  site = await startSite(
    {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Kestrel Cloud <no-reply@kestrelcloud.example>',
      // The partner's MCP Registry key: this server builds its own site, with the proof file.
      MCP_REGISTRY_PUBLIC_KEY: registryKey.publicKey,
    },
    undefined,
    undefined,
    choose,
  );
});

afterAll(async () => {
  await site?.stop();
  await smtp?.stop();
  await new Promise((resolve) => taken?.close(resolve));
  if (site) expect(() => process.kill(site.pid, 0)).toThrow(); // stopped by its PID
});

const get = (path: string) => fetch(`${site.url}${path}`, { redirect: 'manual' });
const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${site.url}/api/proposal`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('starting', () => {
  it('starts again on another port when the one chosen is taken before npm start binds it', () => {
    expect(offered).toHaveLength(2);
    expect(site.url).toBe(`http://127.0.0.1:${offered[1]}`);
  });
});

describe('npm start, as it starts', () => {
  // Checked first: the output kept is the last few kilobytes.
  it('prints one address, the one it serves', () => {
    const addresses = new Set(site.output().match(/https?:\/\/(?:localhost|127\.0\.0\.1):\d+/g));
    expect([...addresses]).toEqual([`http://localhost:${new URL(site.url).port}`]);
  });
});

describe('every path of the published interface, over HTTP', () => {
  const expected: [string, RegExp][] = [
    ['/', /^text\/html; charset=utf-8$/],
    ['/agents', /^text\/html; charset=utf-8$/],
    ['/services', /^text\/html; charset=utf-8$/],
    ['/delivery-models', /^text\/html; charset=utf-8$/],
    ['/partners', /^text\/html; charset=utf-8$/],
    ['/about', /^text\/html; charset=utf-8$/],
    ['/aws-credentials', /^text\/html; charset=utf-8$/],
    ['/case-studies', /^text\/html; charset=utf-8$/],
    ['/blog', /^text\/html; charset=utf-8$/],
    ['/proposal', /^text\/html; charset=utf-8$/],
    ['/api/capabilities', /^application\/json; charset=utf-8$/],
    ['/api/proposal', /^application\/json; charset=utf-8$/],
    ['/llms.txt', /^text\/plain; charset=utf-8$/],
    ['/llms-full.txt', /^text\/plain; charset=utf-8$/],
    ['/index.md', /^text\/markdown; charset=utf-8$/],
    ['/services.md', /^text\/markdown; charset=utf-8$/],
    ['/sitemap.xml', /^application\/xml/],
    ['/sitemap.md', /^text\/markdown; charset=utf-8$/],
    ['/robots.txt', /^text\/plain; charset=utf-8$/],
    ['/openapi.json', /^application\/json/],
    ['/.well-known/api-catalog', /^application\/(linkset\+)?json/],
    ['/schemas/capabilities.schema.json', /^application\/json/],
    ['/.well-known/ai-catalog.json', /^application\/json/],
    ['/.well-known/agent-skills/index.json', /^application\/json/],
    ['/.well-known/agent-skills/request-a-proposal/SKILL.md', /^text\/markdown; charset=utf-8$/],
    // A file without an extension, typed by its path's header as on Netlify (scripts/serve/untyped-files.ts).
    ['/mcp/server-card', /^application\/mcp-server-card\+json$/],
    ['/.well-known/mcp/server-card.json', /^application\/json; charset=utf-8$/],
  ];

  it.each(expected)('GET %s → 200 %s', async (path, type) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(type);
    expect((await res.text()).length).toBeGreaterThan(50);
  });

  // The function's operations are run against /openapi.json in-process (tests/built/openapi-contract.test.ts);
  // the static ones only npm start serves.
  it('answers the GET and OPTIONS operations of the /openapi.json it serves as documented', async () => {
    const doc = (await (await get('/openapi.json')).json()) as Schema;
    const check = responseChecker(doc);
    const mismatches: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(item).filter((m) => m !== 'post')) {
        const res = await fetch(`${site.url}${path}`, { method: method.toUpperCase(), redirect: 'manual' });
        const found = await check(path, method, res);
        mismatches.push(...found.mismatches.map((m) => `${method.toUpperCase()} ${path}: ${m}`));
        if (found.status >= 400) mismatches.push(`${method.toUpperCase()} ${path}: ${found.status}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('the capabilities document links its schema and allows any origin', async () => {
    const res = await get('/api/capabilities');
    expect(res.headers.get('link')).toContain('rel="describedby"');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const doc = await res.json();
    expect(doc.contact.proposal_api).toMatch(/\/api\/proposal$/);
  });

  it('/ sends its Link header: twin, llms.txt, API catalog, OpenAPI, agents page, AI catalog', async () => {
    const res = await get('/');
    const link = res.headers.get('link') ?? '';
    const rels = Object.fromEntries(
      [...link.matchAll(/<([^>]+)>; rel="([^"]+)"/g)].map((m) => [m[2]!, new URL(m[1]!, site.url).pathname]),
    );
    expect(rels).toEqual({
      alternate: '/index.md',
      describedby: '/llms.txt',
      'api-catalog': '/.well-known/api-catalog',
      'service-desc': '/openapi.json',
      'service-doc': '/agents',
      'ai-catalog': '/.well-known/ai-catalog.json',
    });
    expect(res.headers.get('content-usage')).toMatch(/^train-ai=[yn], search=[yn]$/);
    // Every target is served.
    for (const path of Object.values(rels)) expect((await get(path)).status, path).toBe(200);
  });

  it('a twin names its page as canonical and points to /llms.txt, in its Link header and under its title', async () => {
    const res = await get('/services.md');
    const links = Object.fromEntries(
      [...(res.headers.get('link') ?? '').matchAll(/<([^>]+)>; rel="([^"]+)"/g)].map((m) => [m[2]!, m[1]!]),
    );
    const origin = `http://localhost:${new URL(site.url).port}`;
    expect(links).toEqual({ canonical: `${origin}/services`, describedby: `${origin}/llms.txt` });
    const [, title, pointer] = (await res.text()).split(/\n---\n\n|\n\n/);
    expect(title).toMatch(/^# /);
    expect(pointer).toBe(`> For the index of every page, see [llms.txt](${origin}/llms.txt).`);
    expect((await get('/services')).status).toBe(200);
  });

  it('other pages link their twin, and HEAD of the API catalog names itself', async () => {
    const services = (await get('/services')).headers.get('link') ?? '';
    expect(services).toMatch(/\/services\.md>; rel="alternate"; type="text\/markdown"/);
    expect(services).toMatch(/\/llms\.txt>; rel="describedby"/);
    const head = await fetch(`${site.url}/.well-known/api-catalog`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('link')).toMatch(/\/\.well-known\/api-catalog>; rel="api-catalog"/);
  });

  it('the AI catalog names the server card, served with that media type; the earlier home has the earlier shape', async () => {
    const catalog = (await (await get('/.well-known/ai-catalog.json')).json()) as {
      entries: { type: string; url: string }[];
    };
    const entry = catalog.entries.find((e) => e.type === 'application/mcp-server-card+json')!;
    const res = await fetch(entry.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(entry.type);
    const card = (await res.json()) as { remotes: { type: string; url: string }[] };
    const earlier = (await (await get('/.well-known/mcp/server-card.json')).json()) as Record<string, unknown>;
    expect(earlier).toMatchObject({
      serverInfo: { name: expect.any(String), version: expect.any(String) },
      transport: { type: card.remotes[0]!.type, endpoint: card.remotes[0]!.url },
      capabilities: { tools: expect.any(Object) },
    });
  });

  it("serves the MCP Registry's proof of the domain, 200 without a redirect, with the key the build was given", async () => {
    const res = await fetch(`${site.url}/.well-known/mcp-registry-auth`, {
      redirect: 'manual',
      headers: { accept: 'text/plain', 'user-agent': 'mcp-registry/1.0' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const record = (await res.text()).trim();
    expect(record).toBe(`v=MCPv1; k=ed25519; p=${registryKey.publicKey}`);
    // What the registry does with it: a signature made with the private key verifies with the key served.
    const served = Buffer.from(/p=(\S+)$/.exec(record)![1]!, 'base64');
    const spki = Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), served]);
    const timestamp = Buffer.from(new Date().toISOString());
    const signature = sign(null, timestamp, registryKey.privateKey);
    expect(verify(null, timestamp, createPublicKey({ key: spki, format: 'der', type: 'spki' }), signature)).toBe(true);
  });

  it('pages carry the security headers', async () => {
    const res = await get('/services');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('strict-transport-security')).toContain('max-age=');
  });
});

describe('the proposal API through npm start', () => {
  it('GET contract, then guide and summarize round trips', async () => {
    const contract = await (await get('/api/proposal')).json();
    expect(Object.keys(contract.actions)).toEqual([
      'guide',
      'summarize',
      'submit',
      'check_link',
      'confirm_request',
      'deny_request',
    ]);

    const guide = await post(contract.actions.guide.example_request);
    expect(guide.status).toBe(200);
    expect(await guide.json()).toEqual(contract.actions.guide.example_response.body);

    const summary = await post(contract.actions.summarize.example_request);
    expect(summary.status).toBe(200);
    expect((await summary.json()).submitted).toBe(false);
  });

  it('guide → summarize → submit → replay, with one confirmation email', async () => {
    const guide = await (await post(EXAMPLE_REQUESTS.guide)).json();
    const request = {
      ...EXAMPLE_REQUESTS.submit,
      engagement_model: guide.engagement_model.id,
      email: `e2e-${randomUUID()}@example.com`,
    };
    const summary = await (await post({ ...request, action: 'summarize', consent: undefined })).json();
    expect(summary.ready_to_submit).toBe(true);

    const key = randomUUID();
    const first = await post(request, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    const body = await first.json();
    expect(body.status).toBe('received');
    expect(body.confirmation_email).toBe('sent');

    const replay = await post(request, { 'idempotency-key': key });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(body);

    const mails = smtp.messages.filter((m) => m.to.includes(request.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.raw).toContain(body.request_id);

    const reused = await post({ ...request, timeline: 'Next year' }, { 'idempotency-key': key });
    expect(reused.status).toBe(422);
    expect(reused.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
  });

  it('a secret is refused over HTTP, naming the field only', async () => {
    const token = ['ghp', '_', 'R4nd0mT0k3nV4lu3F0rT3st1ngOnly012345'].join('');
    const res = await post({ action: 'summarize', constraints: `CI uses ${token}` });
    expect(res.status).toBe(422);
    const text = await res.text();
    expect(text).toContain('#/constraints');
    expect(text).not.toContain(token);
  });
});

describe('the front server passes a request on without its hop-by-hop headers', () => {
  // Connection names one hop only (RFC 9110 7.6.1): the client's forwarded to netlify serve, or
  // netlify serve's `keep-alive` passed back, made every second such initialize a bare 400.
  it('a 2025-era MCP initialize with Connection: close, sent twice, is answered 200 both times', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } },
    });
    const initialize = () =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = request(new URL('/mcp', site.url), {
          method: 'POST',
          headers: {
            connection: 'close',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'content-length': Buffer.byteLength(body),
          },
        });
        req.once('response', (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.once('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.once('error', reject).end(body);
      });
    const first = await initialize();
    const second = await initialize();
    expect([first.status, second.status], `${first.text}\n${second.text}`).toEqual([200, 200]);
    expect(second.text).toContain('"protocolVersion":"2025-06-18"');
  });
});

describe('npm start publishes its own address', () => {
  it('points every link an agent follows at itself, and each answers', async () => {
    const origin = `http://localhost:${new URL(site.url).port}`;
    const capabilities = (await (await get('/api/capabilities')).json()) as {
      canonical_url: string;
      contact: { proposal_api: string };
    };
    expect(capabilities.canonical_url).toMatch(new RegExp(`^${origin}`));
    const links = [...(await (await get('/llms.txt')).text()).matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map(
      (m) => m[1]!,
    );
    expect(links.length).toBeGreaterThan(5);
    for (const link of links) expect(new URL(link).origin, link).toBe(origin);
    for (const link of [capabilities.contact.proposal_api, ...links.slice(0, 5)])
      expect((await fetch(link)).status, link).toBe(200);
  });
});

describe('a second npm start in the same checkout', () => {
  // Each serves from a folder of its own (scripts/serve/server-dir.ts): the second's build for its
  // port once made the first publish the second's address and refuse its own Origin at /mcp.
  it('leaves the first serving its own address, and each accepts its own Origin', async () => {
    const second = await startSite({}, undefined, site.dir);
    try {
      for (const s of [site, second]) {
        const origin = `http://localhost:${new URL(s.url).port}`;
        const capabilities = (await (await fetch(`${s.url}/api/capabilities`)).json()) as { canonical_url: string };
        expect(capabilities.canonical_url).toMatch(new RegExp(`^${origin}/`));
        const initialize = await fetch(`${s.url}/mcp`, {
          method: 'POST',
          headers: { origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } },
          }),
        });
        expect(initialize.status, origin).toBe(200);
      }
      // The second was built without a registry key: it serves no proof file.
      expect((await fetch(`${second.url}/.well-known/mcp-registry-auth`, { redirect: 'manual' })).status).toBe(404);
    } finally {
      await second.stop({ keep: true }); // the folder is the first's too
    }
  });
});
