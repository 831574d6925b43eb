/**
 * Every `pattern` the site publishes (the contract, the OpenAPI document, the capabilities schema,
 * the MCP and WebMCP tools) compiles and means the same in JavaScript with and without the u flag,
 * in Python's re (python3, as JSON Schema libraries call it: re.search) and in RE2's syntax. Checked
 * with the text fields' accepted and refused examples and, in JavaScript, with every BMP character.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDist } from '../../scripts/local-site/dist.ts';
import type { Knowledge } from '../../src/contract/knowledge.ts';
import { VISIBLE_LINE_PATTERN, VISIBLE_TEXT_PATTERN } from '../../src/contract/text-patterns.ts';
import { mcpTools, webmcpTools } from '../../src/contract/tools.ts';
import { re2SyntaxProblem } from '../helpers/re2-syntax.ts';

const root = join(import.meta.dirname, '../..');
const k = JSON.parse(readFileSync(join(root, '.generated/knowledge.json'), 'utf8')) as Knowledge;

/** Every string under a `pattern` key, with where it was found. */
function patternsIn(value: unknown, where: string, found = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(value)) value.forEach((v, i) => patternsIn(v, `${where}/${i}`, found));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'pattern' && typeof v === 'string') found.set(v, found.get(v) ?? `${where}/pattern`);
      else patternsIn(v, `${where}/${key}`, found);
    }
  }
  return found;
}

const published = new Map<string, string>();
for (const [name, doc] of [
  ['api/proposal.json', JSON.parse(readDist('api/proposal.json'))],
  ['openapi.json', JSON.parse(readDist('openapi.json'))],
  ['schemas/capabilities.schema.json', JSON.parse(readDist('schemas/capabilities.schema.json'))],
  ['MCP tools', mcpTools(k)],
  ['WebMCP tools', webmcpTools(k)],
] as const) {
  for (const [pattern, where] of patternsIn(doc, name)) if (!published.has(pattern)) published.set(pattern, where);
}

const ACCEPTED = [
  'We need help with cloud costs',
  'Ünïcödé naïve café, 日本語, Ελληνικά',
  'Launch 🚀 by Q3 🏴󠁧󠁢󠁥󠁮󠁧󠁿',
  '  leading and trailing spaces  ',
  'x',
  '"Quoted" [brackets] \\backslash (parens) ^caret $dollar',
];
const ACCEPTED_TEXT_ONLY = ['Line one\nline two', 'Tab\tseparated', 'Windows\r\nline'];
const REFUSED = [
  '',
  '   ',
  '\u00a0\u3000\u2003',
  '\u200b\u200b',
  'a\u0000b',
  'bell\u0007',
  'right-to-left \u202e override',
  'soft\u00adhyphen',
  '\ufeffbom',
  'c1\u0085control',
];
const REFUSED_TEXT_ONLY = ['\n\t\r', ' \n '];

const examples = (pattern: string): { value: string; accepted: boolean }[] => {
  const text = pattern === VISIBLE_TEXT_PATTERN;
  return [
    ...ACCEPTED.map((value) => ({ value, accepted: true })),
    ...ACCEPTED_TEXT_ONLY.map((value) => ({ value, accepted: text })),
    ...REFUSED.map((value) => ({ value, accepted: false })),
    ...REFUSED_TEXT_ONLY.map((value) => ({ value, accepted: false })),
  ];
};

/** Compiles every pattern in python3 and answers re.search for each value. */
function python(cases: { pattern: string; values: string[] }[]): { error?: string; matches?: boolean[] }[] {
  const script = `
import json, re, sys
out = []
for case in json.load(sys.stdin):
    try:
        rx = re.compile(case["pattern"])
    except re.error as e:
        out.append({"error": str(e)})
        continue
    out.append({"matches": [rx.search(v) is not None for v in case["values"]]})
json.dump(out, sys.stdout)
`;
  return JSON.parse(execFileSync('python3', ['-c', script], { input: JSON.stringify(cases), encoding: 'utf8' }));
}

describe('published patterns are portable', () => {
  it('finds the text fields\u2019 patterns among the published ones', () => {
    expect([...published.keys()]).toEqual(expect.arrayContaining([VISIBLE_LINE_PATTERN, VISIBLE_TEXT_PATTERN]));
    console.log(`${published.size} distinct patterns: ${[...published.values()].join(', ')}`);
  });

  it('each compiles in JavaScript with and without u, and in RE2 syntax', () => {
    for (const [pattern, where] of published) {
      expect(() => new RegExp(pattern), where).not.toThrow();
      expect(() => new RegExp(pattern, 'u'), where).not.toThrow();
      expect(re2SyntaxProblem(pattern), where).toBeUndefined();
    }
  });

  it('each compiles in Python re, and the text fields accept and refuse the same examples everywhere', () => {
    const patterns = [...published.keys()];
    const results = python(patterns.map((pattern) => ({ pattern, values: examples(pattern).map((e) => e.value) })));
    patterns.forEach((pattern, i) => {
      const where = published.get(pattern)!;
      expect(results[i]!.error, where).toBeUndefined();
      if (pattern !== VISIBLE_LINE_PATTERN && pattern !== VISIBLE_TEXT_PATTERN) return;
      examples(pattern).forEach(({ value, accepted }, j) => {
        const label = `${where}: ${JSON.stringify(value)}`;
        expect(new RegExp(pattern).test(value), `${label} (JS)`).toBe(accepted);
        expect(new RegExp(pattern, 'u').test(value), `${label} (JS u)`).toBe(accepted);
        expect(results[i]!.matches![j], `${label} (Python)`).toBe(accepted);
      });
    });
  });

  it('the text patterns refuse exactly the BMP controls and format characters, with and without u', () => {
    for (const pattern of [VISIBLE_LINE_PATTERN, VISIBLE_TEXT_PATTERN]) {
      const plain = new RegExp(pattern);
      const unicode = new RegExp(pattern, 'u');
      for (let c = 0; c <= 0xffff; c++) {
        if (c >= 0xd800 && c <= 0xdfff) continue;
        const ch = String.fromCharCode(c);
        const lineBreak = pattern === VISIBLE_TEXT_PATTERN && /[\t\n\r]/.test(ch);
        const expected = !/[\p{Cc}\p{Cf}]/u.test(ch) || lineBreak;
        const value = `a${ch}`;
        if (plain.test(value) !== expected || unicode.test(value) !== expected) {
          expect.fail(`U+${c.toString(16).padStart(4, '0')} in ${JSON.stringify(pattern.slice(0, 12))}…`);
        }
      }
    }
  });
});
