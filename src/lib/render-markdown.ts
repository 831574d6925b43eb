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

/** A heading's anchor: `{#id}` written after it, or its text slugged. */
function headingId(text: string, inner: string): string {
  return / \{#([\w-]+)\}$/.exec(text)?.[1] ?? slugify(inner);
}

const marked = new Marked({
  gfm: true,
  renderer: {
    heading({ tokens, depth, text }: Tokens.Heading) {
      const inner = this.parser.parseInline(tokens).replace(/ \{#[\w-]+\}$/, '');
      const id = headingId(text, inner);
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

/** The anchor of every heading in a markdown document, as the rendered page gives them. */
export function headingAnchors(markdown: string): string[] {
  const ids: string[] = [];
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type === 'heading') {
      const heading = token as Tokens.Heading;
      ids.push(headingId(heading.text, marked.parseInline(heading.text, { async: false }).replace(/ \{#[\w-]+\}$/, '')));
    }
  });
  return ids;
}
