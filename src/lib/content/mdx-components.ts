/**
 * The components an .mdx file may use, and the markdown each stands for. The page renders them
 * through @astrojs/mdx (src/components/content/); the twins, the llms files and the capabilities
 * document read the markdown form, so they stay plain markdown. Each tag goes on lines of its own:
 *
 *   <Figure caption="The landing zone after the migration">      →  ![A diagram …](./zone.png)
 *   ![A diagram of the landing zone](./zone.png)                     *The landing zone after the migration*
 *   </Figure>
 *
 *   <Callout type="tip">Start with one workload.</Callout>        →  > **Tip:** Start with one workload.
 */

/** Each call-out kind and the word that heads it, on the page and in its markdown form. */
export const CALLOUT_LABELS = { note: 'Note', tip: 'Tip', warning: 'Warning' } as const;
export type CalloutType = keyof typeof CALLOUT_LABELS;

export const MDX_COMPONENTS = ['Figure', 'Callout'] as const;

const FIGURE = /^<Figure\s+caption="([^"]*)"\s*>[ \t]*\n([\s\S]*?)\n<\/Figure>[ \t]*$/gm;
const CALLOUT = /^<Callout(?:\s+type="([a-z]+)")?\s*>([\s\S]*?)<\/Callout>[ \t]*$/gm;

const isCalloutType = (type: string): type is CalloutType => Object.hasOwn(CALLOUT_LABELS, type);

/** An .mdx body with every component replaced by its markdown form, line for line (errors keep their line numbers). */
export function markdownForm(body: string): string {
  return body
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

/**
 * What the body of `file` does that its markdown form could not carry, each as a problem for the
 * editor: an import, an export or another component would reach readers raw. Only an .mdx file has any.
 */
export function mdxProblems(file: string, body: string): string[] {
  if (!file.endsWith('.mdx')) return [];
  const problems: string[] = [];
  const statement = /^(?:import|export)\s.*$/m.exec(body);
  if (statement) problems.push(`"${statement[0].trim()}": imports and exports are not supported`);
  for (const m of body.matchAll(/<([A-Z][\w.]*)([^>]*)>/g)) {
    const [tag, name = '', attributes = ''] = m;
    if (!(MDX_COMPONENTS as readonly string[]).includes(name)) {
      problems.push(`"${tag}": the only components are <Figure caption="..."> and <Callout type="note|tip|warning">`);
    } else if (name === 'Figure' && !/^\s+caption="[^"]*"\s*$/.test(attributes)) {
      problems.push(`"${tag}": a figure needs its caption: <Figure caption="What it shows">`);
    } else if (name === 'Callout') {
      const type = /^\s+type="([^"]*)"\s*$/.exec(attributes)?.[1];
      if (attributes.trim() !== '' && !(type && isCalloutType(type)))
        problems.push(`"${tag}": a call-out's type is one of ${Object.keys(CALLOUT_LABELS).join(', ')}`);
    }
  }
  // Whatever is left after the known forms (a tag not on a line of its own) would reach readers raw.
  const left = /<\/?(?:Figure|Callout)\b[^>]*>/.exec(markdownForm(body));
  if (left && problems.length === 0)
    problems.push(`"${left[0]}": put each <Figure> and <Callout> tag on a line of its own`);
  return problems.map((problem) => `${file}: body: ${problem}`);
}
