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

export const tagless = (html: string) => html.replace(/<[^>]+>/g, '');

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
      // `{#id}` written after a heading sets its anchor; otherwise its text slugged, unique on the page.
      const id = slugger.slug(/ \{#([\w-]+)\}$/.exec(text)?.[1] ?? tagless(inner));
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

/** The anchor of every heading in a markdown document, as the rendered page gives them. */
export const headingAnchors = (markdown: string): string[] =>
  [...renderMarkdown(markdown).matchAll(/<h[1-6] id="([^"]*)"/g)].map((m) => m[1]!);
