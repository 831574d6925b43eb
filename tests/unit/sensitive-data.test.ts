import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { findSensitiveData, type SensitiveFinding } from '../../src/proposal/guard/index.ts';
import { SENSITIVE_KIND_LABELS, SENSITIVE_KINDS } from '../../src/shared/sensitive-data/kinds.ts';
import { secretlintHits } from '../../src/proposal/guard/secretlint.ts';
import { dniLetterValid, luhnValid, ninoPrefixValid, ssnValid } from '../../src/shared/sensitive-data/identifiers.ts';
import { BENIGN_SAMPLES, fake, SECRET_SAMPLES } from '../fixtures/sensitive-corpus.ts';

/** Resolves a URI-fragment JSON pointer against a value; `found: false` when a step is missing. */
function resolvePointer(root: unknown, pointer: string): { found: boolean } {
  if (!pointer.startsWith('#')) return { found: false };
  const body = pointer.slice(1);
  if (body === '') return { found: true };
  if (!body.startsWith('/')) return { found: false };
  let current: unknown = root;
  for (const raw of body.slice(1).split('/')) {
    const token = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, token)) return { found: false };
    current = (current as Record<string, unknown>)[token];
  }
  return { found: true };
}

const BENIGN_FILLER = {
  action: 'submit',
  business_outcome: 'Move the order platform to AWS with a clear cost model.',
  timeline: 'Start in Q3, finish by year end.',
  engagement_model: 'fixed-project',
};

describe('corpus size', () => {
  it('has at least 35 secrets and 35 benign texts, covering every kind', () => {
    expect(SECRET_SAMPLES.length).toBeGreaterThanOrEqual(35);
    expect(BENIGN_SAMPLES.length).toBeGreaterThanOrEqual(200);
    const kinds = new Set(SECRET_SAMPLES.map((sample) => sample.kind));
    for (const kind of SENSITIVE_KINDS) expect(kinds, kind).toContain(kind);
  });

  it('keeps its secrets out of the source: every one is assembled at runtime', () => {
    const source = readFileSync(new URL('../fixtures/sensitive-corpus.ts', import.meta.url), 'utf8');
    const written = SECRET_SAMPLES.filter((sample) => source.includes(sample.secret)).map((sample) => sample.name);
    expect(written).toEqual([]);
  });
});

describe('findSensitiveData refuses secrets', () => {
  it.each(SECRET_SAMPLES.map((sample) => [sample.name, sample] as const))('%s', async (_name, sample) => {
    const body = { ...BENIGN_FILLER, [sample.field]: sample.text };
    const findings = await findSensitiveData(body);
    const pointer = `#/${sample.field}`;
    expect(findings).toContainEqual({ pointer, kind: sample.kind, label: SENSITIVE_KIND_LABELS[sample.kind] });
    // Exactly one kind per sample: specific detectors win over generic ones on the same value.
    expect(findings.map((finding) => `${finding.pointer} ${finding.kind}`)).toEqual([`${pointer} ${sample.kind}`]);
    // Never the value, nor the text around it.
    const serialized = JSON.stringify(findings);
    expect(serialized).not.toContain(sample.secret);
    expect(serialized).not.toContain(sample.text.slice(0, 40));
  });
});

describe('findSensitiveData lets ordinary intake text through', () => {
  it.each(BENIGN_SAMPLES.map((sample) => [sample.name, sample] as const))('%s', async (_name, sample) => {
    expect(await findSensitiveData({ ...BENIGN_FILLER, [sample.field]: sample.text })).toEqual([]);
  });

  it('passes the whole benign corpus as one request', async () => {
    const body = Object.fromEntries(BENIGN_SAMPLES.map((sample, index) => [`${sample.field}_${index}`, sample.text]));
    expect(await findSensitiveData(body)).toEqual([]);
  });
});

describe('findings', () => {
  const jwtSample = SECRET_SAMPLES.find((sample) => sample.kind === 'jwt');
  const cardSample = SECRET_SAMPLES.find((sample) => sample.kind === 'payment-card');
  const passwordSample = SECRET_SAMPLES.find((sample) => sample.kind === 'password');
  if (jwtSample === undefined || cardSample === undefined || passwordSample === undefined) {
    throw new Error('corpus lacks a jwt, card or password sample');
  }

  it('attributes each secret to its own field when all are sent in one request', async () => {
    const body: Record<string, unknown> = {};
    SECRET_SAMPLES.forEach((sample, index) => {
      body[`benign_${index}`] = BENIGN_SAMPLES[index % BENIGN_SAMPLES.length]?.text;
      body[`secret_${index}`] = sample.text;
    });
    const findings = await findSensitiveData(body);
    expect(findings.map((finding) => `${finding.pointer} ${finding.kind}`)).toEqual(
      SECRET_SAMPLES.map((sample, index) => `#/secret_${index} ${sample.kind}`),
    );
  });

  it('point into nested arrays and objects', async () => {
    const findings = await findSensitiveData({
      action: 'summarize',
      notes: ['nothing to see here', jwtSample.text],
      contact: { details: { billing: cardSample.text } },
    });
    expect(findings).toEqual([
      { pointer: '#/notes/1', kind: 'jwt', label: 'a JSON Web Token' },
      { pointer: '#/contact/details/billing', kind: 'payment-card', label: 'a payment card number' },
    ]);
  });

  it('escape "~" and "/" in keys (RFC 6901) and percent-encode the fragment', async () => {
    const body = { 'a/b': cardSample.text, 'm~n': { 'x y': jwtSample.text } };
    const findings = await findSensitiveData(body);
    expect(findings.map((finding) => finding.pointer)).toEqual(['#/a~1b', '#/m~0n/x%20y']);
    for (const finding of findings) expect(resolvePointer(body, finding.pointer).found).toBe(true);
  });

  it('report at most one finding per field and kind, and every kind in a field', async () => {
    const findings = await findSensitiveData({
      constraints: `${cardSample.text} ${cardSample.text} and ${passwordSample.text} and ${jwtSample.text}`,
    });
    expect(findings.map((finding) => finding.kind)).toEqual(['jwt', 'password', 'payment-card']);
  });

  it('ignore numbers, booleans and null, and short strings', async () => {
    const cardAsNumber = Number(['4111', '1111', '1111', '1111'].join(''));
    const findings = await findSensitiveData({ a: cardAsNumber, b: true, c: null, d: ['1-10'], e: {} });
    expect(findings).toEqual([]);
  });

  it('survive keys and values with lone surrogates, as JSON.parse can produce', async () => {
    const body = JSON.parse(
      `{"a\\ud800": ${JSON.stringify(cardSample.text)}, "b": "x\\udc00 ${cardSample.secret}"}`,
    ) as Record<string, unknown>;
    expect(await findSensitiveData(body)).toEqual([
      { pointer: '#/a%EF%BF%BD', kind: 'payment-card', label: 'a payment card number' },
      { pointer: '#/b', kind: 'payment-card', label: 'a payment card number' },
    ]);
  });

  it('report a secret used as a key at the enclosing object, never in a pointer', async () => {
    const key = 'ghp_' + fake('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 36, 99);
    const findings = await findSensitiveData({ extra: { [key]: cardSample.text } });
    expect(findings).toEqual([
      { pointer: '#/extra', kind: 'api-token', label: 'an API token' },
      { pointer: '#/extra', kind: 'payment-card', label: 'a payment card number' },
    ]);
    expect(JSON.stringify(findings)).not.toContain(key);
  });

  it('see through zero-width characters and full-width digits', async () => {
    const split = cardSample.secret.split('').join('\u200B');
    const wide = cardSample.secret.replace(/\d/g, (digit) => String.fromCharCode(0xff10 + Number(digit)));
    expect(await findSensitiveData({ a: `card ${split}`, b: `card ${wide}` })).toEqual([
      { pointer: '#/a', kind: 'payment-card', label: 'a payment card number' },
      { pointer: '#/b', kind: 'payment-card', label: 'a payment card number' },
    ]);
  });

  it('cannot be switched off from inside a field with a secretlint-disable comment', async () => {
    const text = `<!-- secretlint-disable -->\n${SECRET_SAMPLES[0]?.text ?? ''}`;
    expect((await findSensitiveData({ blocker: text })).map((finding) => finding.kind)).toEqual(['cloud-access-key']);
  });
});

describe('failure', () => {
  it('rejects with an error that quotes nothing when a detector throws', async () => {
    const sample = SECRET_SAMPLES[0];
    if (sample === undefined) throw new Error('empty corpus');
    vi.resetModules();
    vi.doMock('@secretlint/core', () => ({
      lintSource: (options: { source: { content: string } }) =>
        Promise.reject(new Error(`rule crashed on: ${options.source.content}`)),
    }));
    try {
      const guard = await import('../../src/proposal/guard/index.ts');
      const error: unknown = await guard.findSensitiveData({ blocker: sample.text }).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(guard.SensitiveDataScanError);
      expect(error instanceof Error ? error.cause : 'not an error').toBeUndefined();
      const shown = `${String(error)} ${error instanceof Error ? (error.stack ?? '') : ''} ${JSON.stringify(error)}`;
      expect(shown).not.toContain(sample.secret);
    } finally {
      vi.doUnmock('@secretlint/core');
      vi.resetModules();
    }
  });
});

describe('checksums and structure rules', () => {
  it('Luhn', () => {
    expect(luhnValid(['4111', '1111', '1111', '1111'].join(''))).toBe(true);
    expect(luhnValid(['4111', '1111', '1111', '1112'].join(''))).toBe(false);
  });

  it('SSN areas, groups and serials', () => {
    expect(ssnValid('512', '47', '2038')).toBe(true);
    for (const [area, group, serial] of [
      ['000', '12', '3456'],
      ['666', '12', '3456'],
      ['900', '12', '3456'],
      ['512', '00', '3456'],
      ['512', '47', '0000'],
    ] as const) {
      expect(ssnValid(area, group, serial), `${area}-${group}-${serial}`).toBe(false);
    }
  });

  it('UK NI prefixes', () => {
    expect(ninoPrefixValid('AB')).toBe(true);
    for (const prefix of ['QQ', 'DA', 'AO', 'GB', 'ZZ', 'NK']) expect(ninoPrefixValid(prefix), prefix).toBe(false);
  });

  it('Spanish DNI check letter', () => {
    expect(dniLetterValid('12345678', 'Z')).toBe(true);
    expect(dniLetterValid('12345678', 'A')).toBe(false);
  });
});

describe('properties', () => {
  const secretTexts = SECRET_SAMPLES.map((sample) => sample.text);
  const text = fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: 80 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.constantFrom(...secretTexts) },
  );
  const { tree } = fc.letrec((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      text,
      fc.array(tie('tree'), { maxLength: 4 }),
      fc.dictionary(fc.string({ maxLength: 6 }), tie('tree'), { maxKeys: 4 }),
      fc.integer(),
      fc.constant(null),
    ),
  }));
  const body = fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('a/b', '~0', 'x y', '%')), tree, {
    maxKeys: 5,
  });

  it('resolves for any object of strings, and every pointer exists in the input', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (input) => {
        const findings: SensitiveFinding[] = await findSensitiveData(input);
        for (const finding of findings) {
          expect(resolvePointer(input, finding.pointer).found, finding.pointer).toBe(true);
          expect(SENSITIVE_KINDS).toContain(finding.kind);
          expect(finding.label).toBe(SENSITIVE_KIND_LABELS[finding.kind]);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('never echoes an embedded secret', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...SECRET_SAMPLES), fc.string({ maxLength: 30 }), async (sample, noise) => {
        const findings = await findSensitiveData({ [sample.field]: `${noise} ${sample.text} ${noise}` });
        expect(findings.length).toBeGreaterThan(0);
        expect(JSON.stringify(findings)).not.toContain(sample.secret);
      }),
      { numRuns: 100 },
    );
  });
});

describe('secretlint layer', () => {
  it('runs in-process and finds provider tokens on its own', async () => {
    const github = SECRET_SAMPLES.find((sample) => sample.name === 'GitHub classic token');
    expect((await secretlintHits(github?.text ?? '')).map((hit) => hit.kind)).toEqual(['api-token']);
  });

  it('loads on the first lint: lints started before the load ends all await it and find their token', async () => {
    const github = SECRET_SAMPLES.find((sample) => sample.name === 'GitHub classic token');
    vi.resetModules();
    try {
      const fresh = await import('../../src/proposal/guard/secretlint.ts');
      const kinds = await Promise.all([1, 2, 3].map(() => fresh.secretlintHits(github?.text ?? '')));
      expect(kinds.map((hits) => hits.map((hit) => hit.kind))).toEqual([['api-token'], ['api-token'], ['api-token']]);
    } finally {
      vi.resetModules();
    }
  });

  it('refuses the scan when secretlint cannot load, never skips it, and loads again on the next scan', async () => {
    const sample = SECRET_SAMPLES.find((s) => s.name === 'GitHub classic token');
    vi.resetModules();
    vi.doMock('@secretlint/core', () => {
      throw new Error('cannot load');
    });
    try {
      const guard = await import('../../src/proposal/guard/index.ts');
      await expect(guard.findSensitiveData({ blocker: sample?.text ?? '' })).rejects.toBeInstanceOf(
        guard.SensitiveDataScanError,
      );
      vi.doUnmock('@secretlint/core');
      const findings = await guard.findSensitiveData({ blocker: sample?.text ?? '' });
      expect(findings.map((finding) => finding.kind)).toEqual(['api-token']);
    } finally {
      vi.doUnmock('@secretlint/core');
      vi.resetModules();
    }
  });

  it('leaves no profiler marks behind (its profiler would otherwise grow without bound)', async () => {
    const before = performance.getEntriesByType('mark').length;
    for (let i = 0; i < 20; i += 1) await findSensitiveData({ a: 'We run on ECS and RDS in two regions.' });
    expect(performance.getEntriesByType('mark').length).toBe(before);
  });
});

describe('a request at the size of a full submit', () => {
  // How long the scan takes is measured by `npm run bench` (scripts/bench/latency.ts), not asserted here.
  it('a 4 KB request of benign prose has no findings', async () => {
    // Six intake fields of about 680 characters each, made of whole benign sentences.
    const fields = ['business_outcome', 'current_environment', 'blocker', 'timeline', 'constraints', 'cloud_context'];
    const texts = fields.map(() => '');
    for (let i = 0; texts.some((text) => text.length < 680); i += 1) {
      const slot = i % fields.length;
      if ((texts[slot] ?? '').length < 680)
        texts[slot] = `${texts[slot] ?? ''} ${BENIGN_SAMPLES[i % BENIGN_SAMPLES.length]?.text ?? ''}`;
    }
    const body: Record<string, string> = { action: 'submit', engagement_model: 'fixed-project' };
    fields.forEach((field, index) => {
      body[field] = texts[index] ?? '';
    });
    const size = JSON.stringify(body).length;
    expect(size).toBeGreaterThanOrEqual(4000);
    expect(size).toBeLessThan(5000);
    expect(await findSensitiveData(body)).toEqual([]);
  });
});
