/** Renders a page document's markdown to HTML for the human pages. */
import GithubSlugger from 'github-slugger';
import { Marked, type Tokens } from 'marked';
import { base } from './urls.ts';
import { imageSize } from '../content/images.ts';
import { escapeHtml as escapeAttr } from '../../text/escape-html.ts';

/**
 * One slugger per document, as Astro's own markdown pipeline does: ids follow GitHub's rule and a
 * repeated heading gets `-1`, `-2`, ... so every anchor on a page is unique.
 */
let slugger = new GithubSlugger();

const tagless = (html: string) => html.replace(/<[^>]+>/g, '');

/** A heading's anchor: `{#id}` written after it, or its text slugged; unique within the document. */
function headingId(text: string, inner: string): string {
  return slugger.slug(/ \{#([\w-]+)\}$/.exec(text)?.[1] ?? tagless(inner));
}

/** Own-site URLs become root-relative so the pages work on any host (previews, local serve). */
export function siteRelative(href: string): string {
  const url = URL.canParse(href) ? new URL(href) : undefined;
  return url?.origin === base.origin ? `${url.pathname}${url.search}${url.hash}` : href;
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
      const target = siteRelative(href);
      const titleAttr = title ? ` title="${escapeAttr(title)}"` : '';
      return `<a href="${escapeAttr(target)}"${titleAttr}>${this.parser.parseInline(tokens)}</a>`;
    },
    image({ href, title, text }: Tokens.Image) {
      const src = siteRelative(href);
      // Width and height reserve the image's space before it loads, so the text does not jump.
      const size = imageSize(src);
      const sizeAttrs = size ? ` width="${size.width}" height="${size.height}"` : '';
      const titleAttr = title ? ` title="${escapeAttr(title)}"` : '';
      return `<img src="${escapeAttr(src)}" alt="${escapeAttr(text)}"${sizeAttrs}${titleAttr} loading="lazy" decoding="async">`;
    },
  },
});

/** `page` is the slugger of the whole page when it is rendered in parts, so its anchors stay unique. */
export function renderMarkdown(markdown: string, page = new GithubSlugger()): string {
  slugger = page;
  return marked.parse(markdown, { async: false });
}

/** One line of markdown (a list item, a table cell) as HTML. */
export const renderInline = (markdown: string): string => marked.parseInline(markdown, { async: false });

/** The anchor of a heading block on a page: its own id, or its text slugged, as in markdown. */
export const blockAnchor = (page: GithubSlugger, html: string, id?: string): string => page.slug(id ?? tagless(html));

/** The anchor of every heading in a markdown document, as the rendered page gives them. */
export function headingAnchors(markdown: string): string[] {
  const ids: string[] = [];
  slugger = new GithubSlugger();
  // Synchronous here: no extension of ours walks tokens asynchronously, so the promises are empty.
  void marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type === 'heading') {
      const heading = token as Tokens.Heading;
      ids.push(
        headingId(heading.text, marked.parseInline(heading.text, { async: false }).replace(/ \{#[\w-]+\}$/, '')),
      );
    }
  });
  return ids;
}
