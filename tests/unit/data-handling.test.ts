import { describe, expect, it } from 'vitest';
import { dataHandlingFromEnv, retentionDays } from '../../src/contract/data-handling.ts';
import { redeliveryPolicyFromEnv } from '../../src/proposal/submit/config.ts';

const partner = { name: 'Kestrel Cloud', email: 'proposals@kestrel.example' };

describe('what the pages say about stored data follows RETENTION_DAYS, as the sweep does', () => {
  it.each([
    ['30', 30],
    [' 7 ', 7],
    ['', undefined],
    ['0', undefined],
    ['abc', undefined],
    ['36501', undefined],
    [undefined, undefined],
  ])('RETENTION_DAYS=%j → %j days', (raw, days) => {
    expect(retentionDays(raw)).toBe(days);
    const policy = redeliveryPolicyFromEnv((name) => (name === 'RETENTION_DAYS' ? raw : undefined));
    expect(policy.retentionMs).toBe(days === undefined ? undefined : days * 86_400_000);
  });

  it('names the retention period when set, and "until deletion is asked for" when not', () => {
    expect(dataHandlingFromEnv(partner, { RETENTION_DAYS: '90' })).toMatchObject({
      retention_days: 90,
      retention: expect.stringMatching(/^A stored request is deleted 90 days after it arrived\./),
    });
    expect(dataHandlingFromEnv(partner, {})).toMatchObject({
      retention_days: null,
      retention: expect.stringMatching(/^A stored request is kept until its deletion is asked for\./),
    });
    expect(dataHandlingFromEnv(partner, {}).erasure).toContain('write to proposals@kestrel.example');
  });
});
