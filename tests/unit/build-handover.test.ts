import { describe, expect, it } from 'vitest';
import { handOver, takeOver } from '../../src/lib/handover.ts';

describe('what the pages hand over to the integrations of one build', () => {
  it('reaches the integration once, then is gone', () => {
    const twins: [string, string][] = [['services.md', '# Services\n']];
    handOver('twins', twins);
    expect(takeOver('twins')).toBe(twins);
    expect(() => takeOver('twins')).toThrow('astro build: the pages handed over no twins');
  });

  it('fails the build, naming what is missing, when the pages handed nothing over', () => {
    expect(() => takeOver('knowledge')).toThrow('astro build: the pages handed over no knowledge');
  });
});
