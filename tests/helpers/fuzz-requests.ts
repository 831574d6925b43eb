/**
 * Arbitrary POSTs to /api/proposal: JSON objects with an action (each of the contract's, or none of
 * them) and any other keys, any text, any
 * bytes, under the media types a client may claim, with or without an Idempotency-Key. Drawn by
 * count from the run's seed (fc-seed.ts), so every run sends the same requests.
 */
import fc from 'fast-check';
import { fcSeed } from './fc-seed.ts';

export interface FuzzRequest {
  body: string;
  /** Only values a fetch client can send (printable ASCII and tab). */
  headers: Record<string, string>;
}

const actions = fc.constantFrom(
  'guide',
  'summarize',
  'submit',
  'check_link',
  'confirm_request',
  'deny_request',
  'other',
);
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

/** `count` requests, the same ones for the same seed. */
export function fuzzRequests(count: number, seed = fcSeed()): FuzzRequest[] {
  return fc.sample(fc.tuple(bodies, headers), { numRuns: count, seed }).map(([body, drawn]) => {
    const sent: Record<string, string> = {};
    for (const [name, v] of Object.entries(drawn)) if (v !== undefined && /^[\t\x20-\x7e]*$/.test(v)) sent[name] = v;
    return { body, headers: sent };
  });
}
