/**
 * Item 7: how often the sensitive-data guard refuses an ordinary technical value. A million
 * `crypto.randomUUID()` values (the workspace's Idempotency-Key), a million UUIDv7 as the store
 * makes them (src/proposal/store/time-ordered-id.ts), then 100,000 of every other kind of
 * scripts/bench/technical-values.ts alone and 100,000 texts of them inside sentences. Each value
 * is one field of a request given to the guard itself (findSensitiveData: secretlint's preset and
 * our detectors, as a request's fields and its Idempotency-Key are checked), 1,000 fields a request.
 * A value that is refused is a false positive; a kind's rate is refused / values, and its 95% bound
 * the rate's one-sided upper bound (with none refused, 3 / values: the rule of three).
 *
 * Run by scripts/bench.ts in a fresh process: node scripts/bench/false-positives.ts
 * (`npm run bench -- false-positives` runs this part alone).
 */
import { randomInt, randomUUID } from 'node:crypto';
import { findSensitiveData } from '../../src/proposal/guard/index.ts';
import { timeOrderedId } from '../../src/proposal/store/ids.ts';
import { handBack, progress } from './process.ts';
import { int, ms, table } from './stats.ts';
import { inSentence, requestsOf, seededRandom, TECHNICAL_KINDS, type Random } from './technical-values.ts';

export const UUIDS = 1_000_000;
export const PER_KIND = 100_000;
const FIELDS_PER_REQUEST = 1000;
const EXAMPLES = 3;

export interface FalsePositiveRow {
  kind: string;
  values: number;
  refused: number;
  /** Refused values that are, as written, the shape of sensitive data (counted in `refused`). */
  refusedSameShape: number;
  sameShape: number;
  /** The kinds of data the refused values were taken for, with counts. */
  takenFor: Record<string, number>;
  /** The first few refused values, to see what was read. */
  examples: string[];
  ms: number;
}

export interface FalsePositiveResult {
  seed: number;
  fieldsPerRequest: number;
  rows: FalsePositiveRow[];
  totalValues: number;
  totalRefused: number;
}

/** Runs `count` values from `make` through the guard, FIELDS_PER_REQUEST fields a request. */
async function measure(
  kind: string,
  count: number,
  make: () => string,
  sameShape: (value: string) => boolean = () => false,
): Promise<FalsePositiveRow> {
  const row: FalsePositiveRow = {
    kind,
    values: 0,
    refused: 0,
    refusedSameShape: 0,
    sameShape: 0,
    takenFor: {},
    examples: [],
    ms: 0,
  };
  const started = performance.now();
  while (row.values < count) {
    // Generated a request's worth at a time, so a million values never sit in memory at once.
    for (const values of requestsOf(
      Array.from({ length: Math.min(FIELDS_PER_REQUEST, count - row.values) }, make),
      FIELDS_PER_REQUEST,
    )) {
      const body = Object.fromEntries(values.map((value, i) => [`f${i}`, value]));
      const refused = new Map<number, string[]>();
      for (const finding of await findSensitiveData(body)) {
        const index = Number(finding.pointer.slice('#/f'.length));
        refused.set(index, [...(refused.get(index) ?? []), finding.kind]);
      }
      values.forEach((value, index) => {
        const same = sameShape(value);
        if (same) row.sameShape += 1;
        const kinds = refused.get(index);
        if (kinds === undefined) return;
        row.refused += 1;
        if (same) row.refusedSameShape += 1;
        for (const k of kinds) row.takenFor[k] = (row.takenFor[k] ?? 0) + 1;
        if (row.examples.length < EXAMPLES) row.examples.push(value);
      });
      row.values += values.length;
    }
  }
  row.ms = performance.now() - started;
  return row;
}

async function main(): Promise<void> {
  const seed = Number(process.env['FP_SEED'] ?? randomInt(2 ** 31));
  const random: Random = seededRandom(seed);
  // Warm-up: secretlint loads with the first scan.
  await findSensitiveData({ a: randomUUID() });
  const rows: FalsePositiveRow[] = [];
  progress(`false positives: ${int(UUIDS)} crypto.randomUUID() values`);
  rows.push(await measure('UUID v4, crypto.randomUUID()', UUIDS, () => randomUUID()));
  progress(`false positives: ${int(UUIDS)} UUIDv7 from timeOrderedId`);
  const now = Date.now();
  // Times from now to ten years on: the first 48 bits are the time, so let them vary.
  rows.push(
    await measure('UUID v7, timeOrderedId()', UUIDS, () =>
      timeOrderedId(new Date(now + randomInt(315_360_000) * 1000)),
    ),
  );
  for (const kind of TECHNICAL_KINDS) {
    progress(`false positives: ${kind.name}, ${int(PER_KIND)} alone and ${int(PER_KIND)} in sentences`);
    rows.push(await measure(kind.name, PER_KIND, () => kind.make(random), kind.sameShapeAsSensitive));
    rows.push(
      await measure(
        `${kind.name}, in sentences`,
        PER_KIND,
        () => inSentence(random, kind),
        (text) =>
          kind.sameShapeAsSensitive === undefined
            ? false
            : (text.match(/[0-9A-Za-z]+/g) ?? []).some(kind.sameShapeAsSensitive),
      ),
    );
  }
  handBack({
    seed,
    fieldsPerRequest: FIELDS_PER_REQUEST,
    rows,
    totalValues: rows.reduce((sum, row) => sum + row.values, 0),
    totalRefused: rows.reduce((sum, row) => sum + row.refused, 0),
  } satisfies FalsePositiveResult);
}

/** The one-sided 95% upper bound of a Poisson count (Wilson-Hilferty); 3.0 for none, the rule of three. */
function upper95(count: number): number {
  const n = count + 1;
  return n * (1 - 1 / (9 * n) + 1.645 / (3 * Math.sqrt(n))) ** 3;
}

/** A rate as "1 in 14,286" (or "none"), and the same as a number. */
const rate = (refused: number, values: number): string =>
  refused === 0 ? 'none' : `1 in ${int(values / refused)} (${(refused / values).toExponential(1)})`;

export function printFalsePositives(r: FalsePositiveResult): void {
  console.log(
    table(
      `7. False positives: ordinary technical values the sensitive-data guard refuses (findSensitiveData, ${int(r.fieldsPerRequest)} values a request; seed ${r.seed}, FP_SEED replays it)`,
      ['values', 'count', 'refused', 'rate', '95% bound', 'taken for', 'time'],
      r.rows.map((row) => [
        row.kind,
        int(row.values),
        row.sameShape === 0 ? int(row.refused) : `${int(row.refused)} (${int(row.refusedSameShape)} same shape)`,
        rate(row.refused, row.values),
        `< ${(upper95(row.refused) / row.values).toExponential(1)}`,
        Object.entries(row.takenFor)
          .map(([kind, n]) => `${kind} ${int(n)}`)
          .join(', '),
        ms(row.ms),
      ]),
    ),
  );
  const sameShape = r.rows.filter((row) => row.sameShape > 0);
  for (const row of sameShape) {
    console.log(
      `${row.kind}: ${int(row.sameShape)} of ${int(row.values)} are all decimal digits, a bare number as a card is written; ${int(row.refusedSameShape)} of them refused`,
    );
  }
  for (const row of r.rows.filter((row) => row.examples.length > 0)) {
    console.log(`refused ${row.kind}: ${row.examples.map((e) => JSON.stringify(e)).join(', ')}`);
  }
  console.log(
    `in all: ${int(r.totalRefused)} of ${int(r.totalValues)} values refused (${rate(r.totalRefused, r.totalValues)})`,
  );
}

if (import.meta.main) await main();
