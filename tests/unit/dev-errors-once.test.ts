import { describe, expect, it } from 'vitest';
import { errorsOnce } from '../../scripts/dev/errors-once.ts';

const mistake = (time: string, hint = false) => [
  `${time} [ERROR] Content needs fixing (1 problem):`,
  '',
  'content/capabilities/cloud-engineering.md:13',
  '  field:    order',
  ...(hint ? ['  Hint:', '    Fix the file.'] : []),
];

function run(lines: string[]): string[] {
  const filter = errorsOnce();
  return [...lines.flatMap((line) => filter.line(line)), ...filter.idle()];
}

describe('npm run dev output: each content mistake once', () => {
  it('prints a mistake logged raw, then formatted, then by later requests, once', () => {
    const out = run([
      ...mistake('20:17:13'),
      ...mistake('20:17:13', true),
      '20:17:14 [500] /services',
      '20:17:14 [WARN] [mdx] No files found',
      '20:17:14 [content] Syncing content',
      ...mistake('20:17:14'),
    ]);
    expect(out.filter((l) => l.includes('Content needs fixing'))).toHaveLength(1);
    expect(out).toContain('  field:    order');
  });

  it('prints it again once a page was served in between, and prints a different mistake', () => {
    const other = mistake('20:18:00').map((l) => l.replace('order', 'name'));
    const out = run([...mistake('20:17:13'), '20:17:20 [200] /services', ...mistake('20:17:21'), ...other]);
    expect(out.filter((l) => l.includes('Content needs fixing'))).toHaveLength(3);
  });

  it('holds a block back only until the output goes quiet', () => {
    const filter = errorsOnce();
    expect(mistake('20:17:13').flatMap((l) => filter.line(l))).toEqual([]);
    expect(filter.idle()).toEqual(mistake('20:17:13'));
    expect(filter.line('20:17:15 [200] /services')).toEqual(['20:17:15 [200] /services']);
  });
});
