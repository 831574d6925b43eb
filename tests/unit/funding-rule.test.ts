import { describe, expect, it } from 'vitest';
import { findViolations } from '../../src/lib/content/rules.ts';
import { HONEST, PROMISES } from '../fixtures/funding-corpus.ts';

// The funding rule judged on sentences as editors write them (tests/fixtures/funding-corpus.ts):
// every promise fails, every honest wording passes.
const identity = { name: 'Kestrel Cloud', cloud_provider: 'AWS', cloud_provider_full_name: 'Amazon Web Services' };
const funding = (text: string) => findViolations(text, identity).filter((v) => v.rule === 'no-promised-funding');

describe('the funding rule, for any wording', () => {
  it.each(PROMISES)('refuses the promise: %s', (sentence) => {
    expect(funding(sentence)).not.toEqual([]);
  });

  it.each(HONEST)('lets the honest wording pass: %s', (sentence) => {
    expect(funding(sentence)).toEqual([]);
  });

  it('refuses a promise inside a paragraph of honest sentences, quoting only its sentence', () => {
    const text = `${HONEST[0]} ${PROMISES[0]} ${HONEST[1]}`;
    expect(funding(text).map((v) => v.text)).toEqual([PROMISES[0]]);
  });

  it('holds the corpus sizes the closing note states', () => {
    expect([PROMISES.length, HONEST.length]).toEqual([49, 49]);
  });
});
