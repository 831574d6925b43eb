/** The components an .mdx file may use, each tag on lines of its own, and the markdown each stands for. */
import { position, type Problem } from './problem.ts';

export const CALLOUT_LABELS = { note: 'Note', tip: 'Tip', warning: 'Warning' } as const;
export type CalloutType = keyof typeof CALLOUT_LABELS;

const FIGURE = /^<Figure\s+caption="([^"]*)"\s*>[ \t]*\n([\s\S]*?)\n<\/Figure>[ \t]*$/gm;
const CALLOUT = /^<Callout(?:\s+type="([a-z]+)")?\s*>([\s\S]*?)<\/Callout>[ \t]*$/gm;

const isCalloutType = (type: string): type is CalloutType => Object.hasOwn(CALLOUT_LABELS, type);

/** Fenced code blocks and code spans, where MDX reads braces as text. */
const CODE = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$|`[^`\n]+`/gm;
/** An MDX comment, `{/* … *\/}`, which renders nothing. */
const COMMENT = /\{\s*\/\*[\s\S]*?\*\/\s*\}/g;
/** A brace that opens an MDX expression: not escaped (`\{`), not a placeholder such as `{partner}`. */
const EXPRESSION = /(?<!\\)\{(?![a-z][a-z_]*\})/;

/** `edit` applied to the prose only: code keeps its braces as MDX keeps them. */
function outsideCode(body: string, edit: (prose: string) => string): string {
  let out = '';
  let at = 0;
  for (const m of body.matchAll(CODE)) {
    out += edit(body.slice(at, m.index)) + m[0];
    at = m.index + m[0].length;
  }
  return out + edit(body.slice(at));
}

/** The first MDX expression in the prose, as written (at most 40 characters), if any. */
function firstExpression(body: string): string | undefined {
  const found: string[] = [];
  outsideCode(body.replace(COMMENT, ''), (prose) => {
    const at = EXPRESSION.exec(prose)?.index;
    if (at !== undefined) found.push(/^\{[^}\n]{0,40}\}?/.exec(prose.slice(at))?.[0] ?? '{');
    return prose;
  });
  return found[0];
}

/** Line for line, so errors keep their line numbers; MDX comments go (their line breaks stay). */
export function markdownForm(body: string): string {
  return outsideCode(body, (prose) => prose.replace(COMMENT, (comment) => comment.replace(/[^\n]/g, '')))
    .replace(FIGURE, (_whole, caption: string, inner: string) => `\n${inner}\n*${caption}*`)
    .replace(CALLOUT, (_whole, type: string | undefined, inner: string) => {
      const label = CALLOUT_LABELS[type && isCalloutType(type) ? type : 'note'];
      const [first = '', ...rest] = inner.split('\n');
      // The closing tag's line ends the quote.
      const lines = [`**${label}:** ${first.trim()}`, ...rest];
      return lines
        .map((line, i) => (i > 0 && i === lines.length - 1 && !line.trim() ? '' : `> ${line}`.trimEnd()))
        .join('\n');
    });
}

/** What an .mdx body does that its markdown form could not carry (an import, another component). */
export function mdxProblems(file: string, body: string, raw = ''): Problem[] {
  if (!file.endsWith('.mdx')) return [];
  const problems: [written: string, found: string, fix: string][] = [];
  const statement = /^(?:import|export)\s.*$/m.exec(body);
  if (statement)
    problems.push([
      statement[0].trim(),
      '',
      'remove it: imports and exports are not supported, only the two components',
    ]);
  for (const m of body.matchAll(/<([A-Z][\w.]*)([^>]*)>/g)) {
    const [tag, name = '', attributes = ''] = m;
    if (!['Figure', 'Callout'].includes(name)) {
      problems.push([tag, '', 'use <Figure caption="..."> or <Callout type="note|tip|warning">, or write markdown']);
    } else if (name === 'Figure' && !/^\s+caption="[^"]*"\s*$/.test(attributes)) {
      problems.push([tag, ' without its caption', 'give the figure its caption: <Figure caption="What it shows">']);
    } else if (name === 'Callout') {
      const type = /^\s+type="([^"]*)"\s*$/.exec(attributes)?.[1];
      if (attributes.trim() !== '' && !(type && isCalloutType(type)))
        problems.push([tag, '', `give the call-out one of the types ${Object.keys(CALLOUT_LABELS).join(', ')}`]);
    }
  }
  // The markdown twin cannot evaluate an expression; it drops a comment, and placeholders are filled.
  const expression = firstExpression(body);
  if (expression !== undefined)
    problems.push([
      expression,
      ', an expression in braces, which has no markdown form',
      'write the text itself, or \\{ for a brace',
    ]);
  // A tag left after the known forms is not on a line of its own.
  const left = /<\/?(?:Figure|Callout)\b[^>]*>/.exec(markdownForm(body));
  if (left && problems.length === 0)
    problems.push([left[0], ' beside other text', 'put each <Figure> and <Callout> tag on a line of its own']);
  return problems.map(([written, found, fix]) => {
    const at = raw.indexOf(written, raw.indexOf('\n---', 3));
    return {
      file,
      ...(at === -1 ? { line: 1, column: 1 } : position(raw, at)),
      field: 'body',
      found: `"${written}"${found}`,
      expected: 'markdown, <Figure caption="..."> and <Callout type="..."> tags on lines of their own',
      fix,
    };
  });
}
