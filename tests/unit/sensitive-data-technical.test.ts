/**
 * Ordinary technical values are not sensitive data: a seeded sample of what item 7 of `npm run
 * bench` counts by the million (scripts/bench/technical-values.ts), through the guard itself and
 * the page's check. Issue 44: one `crypto.randomUUID()` in about 14,000 was refused as a card,
 * its digits read across the UUID's groups (25fe4408-0548-4673-9c2d… as 4408 0548 4673 9).
 */
import { describe, expect, it } from 'vitest';
import {
  inSentence,
  ISSUE_44_UUID,
  requestsOf,
  seededRandom,
  TECHNICAL_KINDS,
  uuidV4,
} from '../../scripts/bench/technical-values.ts';
import { findSensitiveData } from '../../src/proposal/guard/index.ts';
import { findSecret } from '../../src/shared/sensitive-data/detect.ts';

const SEED = 44;
/** Enough to have caught issue 44: about three and a half of these were refused before it. */
const UUIDS = 50_000;
const ALONE = 2_000;
const IN_SENTENCES = 1_000;
const FIELDS_PER_REQUEST = 1_000;

/** What the guard refuses among `values` (each one field of a request), as `"value" as kind`. */
async function refused(values: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const chunk of requestsOf(values, FIELDS_PER_REQUEST)) {
    const findings = await findSensitiveData(Object.fromEntries(chunk.map((value, i) => [`f${i}`, value])));
    for (const { pointer, kind } of findings)
      found.push(`${JSON.stringify(chunk[Number(pointer.slice(3))])} as ${kind}`);
  }
  return found;
}

/** What the page's check flags among `values`. */
const flagged = (values: readonly string[]): string[] =>
  values.flatMap((value) => {
    const label = findSecret(value);
    return label === undefined ? [] : [`${JSON.stringify(value)} as ${label}`];
  });

describe('ordinary technical values pass the guard', () => {
  it(`refuses none of ${UUIDS.toLocaleString('en-US')} seeded v4 UUIDs, nor the one of issue 44`, async () => {
    const random = seededRandom(SEED);
    const uuids = [ISSUE_44_UUID, ...Array.from({ length: UUIDS }, () => uuidV4(random))];
    expect(new Set(uuids).size).toBe(UUIDS + 1);
    expect(await refused(uuids)).toEqual([]);
    expect(flagged(uuids)).toEqual([]);
  });

  it.each(TECHNICAL_KINDS.map((kind, index) => [kind.name, kind, index] as const))(
    `refuses no %s, alone (${ALONE.toLocaleString('en-US')}) or in sentences (${IN_SENTENCES.toLocaleString('en-US')})`,
    async (_name, kind, index) => {
      const random = seededRandom(SEED + 1 + index);
      // An S3 request id whose 16 hex digits happen to be decimal is a bare 16-digit number: read by its shape.
      const ordinary = (text: string) =>
        kind.sameShapeAsSensitive === undefined || !(text.match(/[0-9A-Za-z]+/g) ?? []).some(kind.sameShapeAsSensitive);
      const values = [
        ...Array.from({ length: ALONE }, () => kind.make(random)),
        ...Array.from({ length: IN_SENTENCES }, () => inSentence(random, kind)),
      ].filter(ordinary);
      expect(values.length).toBeGreaterThan((ALONE + IN_SENTENCES) * 0.99);
      expect(await refused(values)).toEqual([]);
      expect(flagged(values)).toEqual([]);
    },
  );

  it("takes issue 44's UUID, in every spelling, as an idempotency key", async () => {
    const upper = ISSUE_44_UUID.toUpperCase();
    for (const key of [ISSUE_44_UUID, upper, ISSUE_44_UUID.replaceAll('-', '')]) {
      // What the pipeline holds a sent key to (src/proposal/actions/pipeline.ts, checked).
      expect(await findSensitiveData({ idempotency_key: key }), key).toEqual([]);
    }
    for (const text of [`{${upper}}`, `urn:uuid:${ISSUE_44_UUID}`, `Retry ${ISSUE_44_UUID}, please.`]) {
      expect(await findSensitiveData({ notes: text }), text).toEqual([]);
    }
  });
});
