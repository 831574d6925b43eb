/** Renders a page document's markdown to HTML for the human pages. */
import { Marked, type Tokens } from 'marked';
import { base } from './urls.ts';


const slugify = (text: string) =>
  text
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

const marked = new Marked({
  gfm: true,
  renderer: {
    heading({ tokens, depth, text }: Tokens.Heading) {
      const explicit = / \{#([\w-]+)\}$/.exec(text);
      const inner = this.parser.parseInline(tokens).replace(/ \{#[\w-]+\}$/, '');
      const id = explicit?.[1] ?? slugify(inner);
      // Pages carry their own H1; document headings start at H2.
      return `<h${depth} id="${id}">${inner}</h${depth}>\n`;
    },
    link({ href, title, tokens }: Tokens.Link) {
      // Own-site links become root-relative so the pages work on any host (previews, local serve).
      let target = href;
      const url = URL.canParse(href) ? new URL(href) : undefined;
      if (url?.origin === base.origin) target = `${url.pathname}${url.search}${url.hash}`;
      const titleAttr = title ? ` title="${escapeAttr(title)}"` : '';
      return `<a href="${escapeAttr(target)}"${titleAttr}>${this.parser.parseInline(tokens)}</a>`;
    },
  },
});

export function renderMarkdown(markdown: string): string {
  return marked.parse(markdown, { async: false });
}
