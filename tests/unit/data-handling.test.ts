import { describe, expect, it } from 'vitest';
import { DEFAULT_RETENTION_DAYS, dataHandlingFromEnv, retentionDays } from '../../src/contract/data-handling.ts';
import { readConfig } from '../../src/proposal/config.ts';

const partner = { name: 'Kestrel Cloud', email: 'proposals@kestrel.example' };

describe('what the pages say about stored data follows RETENTION_DAYS, as the scheduled run does', () => {
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
    // The function reads it once (config.ts): unset, empty or unusable, the default applies.
    const { config } = readConfig((name) => (name === 'RETENTION_DAYS' && raw !== '' ? raw : undefined));
    expect(config.retentionMs).toBe((days ?? DEFAULT_RETENTION_DAYS) * 86_400_000);
  });

  it('names the retention period when set, and the finite default when not, with the scheduled clean-up', () => {
    expect(dataHandlingFromEnv(partner, { RETENTION_DAYS: '90' })).toMatchObject({
      retention_days: 90,
      retention: expect.stringMatching(
        /^A stored request is deleted 90 days after it arrived, by a scheduled clean-up that runs every minute whether or not anyone visits the site/,
      ),
    });
    expect(DEFAULT_RETENTION_DAYS).toBe(365);
    for (const env of [{}, { RETENTION_DAYS: 'abc' }, { RETENTION_DAYS: '1', REDELIVERY_MAX_HOURS: '72' }]) {
      expect(dataHandlingFromEnv(partner, env), JSON.stringify(env)).toMatchObject({
        retention_days: DEFAULT_RETENTION_DAYS,
        retention: expect.stringMatching(
          /^A stored request is deleted 365 days after it arrived \(the default period\), by a scheduled clean-up that runs every minute/,
        ),
      });
    }
    expect(dataHandlingFromEnv(partner, {}).erasure).toContain('write to proposals@kestrel.example');
  });

  it('says the default period applies where the function refuses RETENTION_DAYS', () => {
    // Shorter than REDELIVERY_MAX_HOURS (72 h by default), or out of range: config_invalid, and the default.
    for (const raw of ['2', '0', '36501']) {
      const env = { RETENTION_DAYS: raw };
      const { config } = readConfig((name) => env[name as keyof typeof env]);
      expect(config.retentionMs).toBe(DEFAULT_RETENTION_DAYS * 86_400_000);
      expect(dataHandlingFromEnv(partner, env).retention_days).toBe(config.retentionMs / 86_400_000);
    }
  });
});
