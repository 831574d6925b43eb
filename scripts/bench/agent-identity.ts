/**
 * Item 6: what verifying a Web Bot Auth signature costs the reply of a submit. The function runs
 * in-process (as in item 4) on a local Blobs server; an operator's key directory is a loopback
 * stand-in in this process, and agents sign with `web-bot-auth`. Measured in interleaved rounds:
 * an unsigned submit, a signed one whose directory is fetched every time (`no-store`: a cold cache)
 * and a signed one whose directory is cached (`max-age`: a warm cache), plus the verification alone.
 * The verification starts as the request arrives and the submit waits for it only to store the
 * record, so on the reply its cost overlaps the submit's own work: the rows say how much shows.
 *
 * Run by scripts/bench.ts in a fresh process: node scripts/bench/agent-identity.ts
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signatureHeaders } from 'web-bot-auth';
import { Ed25519Signer } from 'web-bot-auth/crypto';
import { KEY_DIRECTORY_PATH, LOOPBACK_DIRECTORY_ENV } from '../../src/contract/web-bot-auth.ts';
import { startLocalBlobs } from './local-blobs.ts';
import { handBack, progress } from './process.ts';
import { ms, summarize, table, type Summary } from './stats.ts';

export const ROUNDS = 100;
const WARMUP = 10;
const API = 'http://127.0.0.1/api/proposal';

export interface AgentIdentityResult {
  rounds: number;
  unsigned: Summary;
  cold: Summary;
  warm: Summary;
  verifyCold: Summary;
  verifyWarm: Summary;
  outcomes: Record<string, number>;
  /** Directory fetches during the timed submits: one per cold submit, none (or one) for the warm ones. */
  directoryFetches: { cold: number; warm: number };
}

type Handler = (req: Request) => Promise<Response>;

/** A key directory on loopback serving one Ed25519 key with the given Cache-Control; counts fetches. */
async function directory(publicJwk: JsonWebKey, cacheControl: string) {
  const state = { fetches: 0, origin: '' };
  const server: Server = createServer((req, res) => {
    if (req.url !== KEY_DIRECTORY_PATH) return void res.writeHead(404).end();
    state.fetches += 1;
    res
      .writeHead(200, {
        'content-type': 'application/http-message-signatures-directory+json',
        'cache-control': cacheControl,
      })
      .end(JSON.stringify({ keys: [publicJwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { state, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function main(): Promise<void> {
  for (const name of ['CRM_PROVIDER', 'SMTP_URL', 'MAIL_FROM']) delete process.env[name];
  process.env[LOOPBACK_DIRECTORY_ENV] = '1';
  const blobs = await startLocalBlobs('agent-identity');
  const pair = await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
  const privateJwk = await crypto.subtle.exportKey('jwk', pair.privateKey);
  const { x = '' } = await crypto.subtle.exportKey('jwk', pair.publicKey);
  const publicJwk = { kty: 'OKP', crv: 'Ed25519', x };
  const signer = await Ed25519Signer.fromJWK(privateJwk);
  const [coldDir, warmDir] = await Promise.all([
    directory(publicJwk, 'no-store'),
    directory(publicJwk, 'max-age=3600'),
  ]);
  try {
    const { default: handler } = (await import('../../netlify/functions/proposal.mts')) as { default: Handler };
    const { EXAMPLE_REQUESTS } = await import('../../src/contract/contract.ts');
    const { verifyAgentIdentity } = await import('../../src/proposal/agent-identity/verify.ts');
    const { KeyDirectories } = await import('../../src/proposal/agent-identity/directory.ts');
    const { ProposalsStore } = await import('../../src/proposal/store/blobs.ts');
    const body = JSON.stringify(EXAMPLE_REQUESTS.submit);
    const outcomes: Record<string, number> = {};

    /** A submit's headers, signed for `operator` when one is given (signing is not timed). */
    const headersFor = async (operator?: string): Promise<Record<string, string>> => {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      };
      if (operator === undefined) return headers;
      headers['signature-agent'] = `"${operator}"`;
      const now = Date.now();
      const signed = await signatureHeaders(new Request(API, { method: 'POST', headers }), signer, {
        created: new Date(now),
        expires: new Date(now + 60_000),
      });
      return { ...headers, signature: signed.Signature, 'signature-input': signed['Signature-Input'] };
    };
    const submit = async (headers: Record<string, string>): Promise<number> => {
      const started = performance.now();
      const res = await handler(new Request(API, { method: 'POST', headers, body }));
      await res.arrayBuffer();
      const took = performance.now() - started;
      if (res.status !== 201) throw new Error(`a submit answered ${res.status}`);
      return took;
    };

    progress(`agent identity: ${WARMUP} warm-up rounds`);
    for (let i = 0; i < WARMUP; i++) {
      for (const operator of [undefined, coldDir.state.origin, warmDir.state.origin])
        await submit(await headersFor(operator));
    }
    const fetchesBefore = { cold: coldDir.state.fetches, warm: warmDir.state.fetches };

    progress(`agent identity: ${ROUNDS} rounds of unsigned, cold-cache and warm-cache submits`);
    const times = { unsigned: [] as number[], cold: [] as number[], warm: [] as number[] };
    const variants = [
      ['unsigned', undefined],
      ['cold', coldDir.state.origin],
      ['warm', warmDir.state.origin],
    ] as const;
    for (let round = 0; round < ROUNDS; round++) {
      // Rotated, so no variant always runs after the same one.
      for (let v = 0; v < variants.length; v++) {
        const [name, operator] = variants[(round + v) % variants.length]!;
        times[name].push(await submit(await headersFor(operator)));
      }
    }

    const directoryFetches = {
      cold: coldDir.state.fetches - fetchesBefore.cold,
      warm: warmDir.state.fetches - fetchesBefore.warm,
    };

    progress(`agent identity: ${ROUNDS} verifications alone, cold and warm`);
    const deps = {
      directories: new KeyDirectories({ now: Date.now, loopbackHttp: true }),
      store: new ProposalsStore(),
      now: Date.now,
      loopbackHttp: true,
    };
    const verifyTimes = { cold: [] as number[], warm: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, operator] of [
        ['cold', coldDir.state.origin],
        ['warm', warmDir.state.origin],
      ] as const) {
        const req = new Request(API, { method: 'POST', headers: await headersFor(operator), body });
        const started = performance.now();
        const identity = await verifyAgentIdentity(req, new TextEncoder().encode(body), deps);
        verifyTimes[name].push(performance.now() - started);
        outcomes[`${name} ${identity.outcome}`] = (outcomes[`${name} ${identity.outcome}`] ?? 0) + 1;
      }
    }

    handBack({
      rounds: ROUNDS,
      unsigned: summarize(times.unsigned),
      cold: summarize(times.cold),
      warm: summarize(times.warm),
      verifyCold: summarize(verifyTimes.cold),
      verifyWarm: summarize(verifyTimes.warm),
      outcomes,
      directoryFetches,
    } satisfies AgentIdentityResult);
  } finally {
    await Promise.all([coldDir.stop(), warmDir.stop(), blobs.stop()]);
  }
}

const ratio = (a: Summary, b: Summary) => `${(a.p50 / b.p50).toFixed(2)}×`;

export function printAgentIdentity(r: AgentIdentityResult): void {
  const row = (label: string, s: Summary, base?: Summary) => [
    label,
    ms(s.p50),
    ms(s.p99),
    ms(s.mean),
    base === undefined ? '' : `${s.p50 >= base.p50 ? '+' : '-'}${ms(Math.abs(s.p50 - base.p50))}`,
    base === undefined ? '' : ratio(s, base),
  ];
  console.log(
    table(
      `6. Web Bot Auth on a submit (in-process, local Blobs, key directory on loopback; ${r.rounds} interleaved rounds)`,
      ['measure', 'p50', 'p99', 'mean', 'p50 added', 'p50 ratio'],
      [
        row('unsigned submit', r.unsigned),
        row(`signed submit, cold directory cache (${r.directoryFetches.cold} fetches)`, r.cold, r.unsigned),
        row(`signed submit, warm directory cache (${r.directoryFetches.warm} fetches)`, r.warm, r.unsigned),
        row('verification alone, cold cache', r.verifyCold),
        row('verification alone, warm cache', r.verifyWarm),
      ],
    ),
  );
  console.log(
    `outcomes of the verifications alone: ${Object.entries(r.outcomes)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; cold/warm verification p50 ratio ${ratio(r.verifyCold, r.verifyWarm)}`,
  );
}

if (import.meta.main) await main();
