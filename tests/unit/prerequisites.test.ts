import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { chromiumMajor, MIN_CHROMIUM_MAJOR } from '../../scripts/local-site/prerequisites.ts';

describe('the Chromium the browser tests need', () => {
  it('reads the major version from what chromium --version prints', () => {
    expect(chromiumMajor('Chromium 156.0.8078.108 built on Debian GNU/Linux 12 (bookworm)')).toBe(156);
    expect(chromiumMajor('Chromium 150.0.7871.100 built on Debian GNU/Linux 12 (bookworm)')).toBe(150);
    expect(chromiumMajor('Google Chrome 140.0.1.2')).toBeUndefined();
  });

  it('.ci/run finds the minimum where it lives, so CI upgrades an older Chromium', () => {
    const script = readFileSync('.ci/run', 'utf8');
    const sed = /chromium_min=\$\(sed -n '([^']+)' ([^)]+)\)/.exec(script);
    expect(sed, '.ci/run reads MIN_CHROMIUM_MAJOR with sed').not.toBeNull();
    const found = execFileSync('sed', ['-n', sed![1]!, sed![2]!], { encoding: 'utf8' }).trim();
    expect(Number(found)).toBe(MIN_CHROMIUM_MAJOR);
  });
});
