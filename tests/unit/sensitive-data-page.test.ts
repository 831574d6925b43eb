import { describe, expect, it } from 'vitest';
import { findSensitiveData } from '../../src/proposal/guard/index.ts';
import { SENSITIVE_KIND_LABELS, type SensitiveKind } from '../../src/shared/sensitive-data/kinds.ts';
import { secretlintHits } from '../../src/proposal/guard/secretlint.ts';
import { findSecret } from '../../src/shared/sensitive-data/detect.ts';
import { BENIGN_SAMPLES, SECRET_SAMPLES } from '../fixtures/sensitive-corpus.ts';

// The page runs the function's credential, prose-secret and card detectors; national IDs, IBANs
// and the token formats only secretlint knows stay with the function (the page's script budget).
const FUNCTION_ONLY_KINDS: readonly SensitiveKind[] = ['national-id', 'bank-account'];

const serverKinds = async (field: string, text: string) =>
  (await findSensitiveData({ [field]: text })).map((finding) => finding.kind);

describe("the page's secret check and the function's guard agree on the corpus", () => {
  it.each(BENIGN_SAMPLES)('both pass benign text: $name', async ({ field, text }) => {
    expect(findSecret(text)).toBeUndefined();
    expect(await serverKinds(field, text)).toEqual([]);
  });

  it.each(SECRET_SAMPLES)('the page flags only what the function refuses, by the same kind: $name', async (sample) => {
    const kinds = await serverKinds(sample.field, sample.text);
    expect(kinds).toContain(sample.kind);
    const page = findSecret(sample.text);
    if (page !== undefined) {
      expect(kinds.map((kind) => SENSITIVE_KIND_LABELS[kind])).toContain(page);
    } else {
      // A sample the page lets through is one only the function's own layer knows.
      const bySecretlint = (await secretlintHits(sample.text)).length > 0;
      expect(FUNCTION_ONLY_KINDS.includes(sample.kind) || bySecretlint, sample.name).toBe(true);
    }
  });

  it('flags every password, private key, JWT, connection string and card sample in the page', () => {
    const pageKinds: readonly SensitiveKind[] = ['private-key', 'jwt', 'password', 'connection-string', 'payment-card'];
    for (const sample of SECRET_SAMPLES.filter((s) => pageKinds.includes(s.kind)))
      expect(findSecret(sample.text), sample.name).toBeDefined();
  });

  it.each(['password = required', 'token=abcdef', 'our password policy requires 14 characters'])(
    'says the same about %j in the page and in the function',
    async (text) => {
      const kinds = await serverKinds('constraints', text);
      expect(findSecret(text)).toBe(kinds[0] === undefined ? undefined : SENSITIVE_KIND_LABELS[kinds[0]]);
    },
  );
});

describe('cloud access key ids', () => {
  it('are flagged in the page in every form the function refuses, hex digits included', async () => {
    const id = `AKIA${'0123456789ABCDEF'}`;
    const text = `Deploys run with ${id} today.`;
    expect(await serverKinds('current_environment', text)).toEqual(['cloud-access-key']);
    expect(findSecret(text)).toBe(SENSITIVE_KIND_LABELS['cloud-access-key']);
  });
});
