/** Links and images as written in a markdown body, with their lines, and rewritten; code is never touched. */

export interface ContentLink {
  kind: 'link' | 'image';
  /** As written, e.g. `/services#cloud-engineering` or `./diagram.png`. */
  href: string;
  text: string;
  line: number;
}

export interface SourcedLink {
  /** `content/blog/x.md` */
  file: string;
  line: number;
  column: number;
  /** `body`, or the frontmatter field (`summary`, `reasons, item 2`). */
  field: string;
  href: string;
  /** The entry's published text, to find the page a `#heading` link is on. */
  context: string;
}

const INLINE = /(!?)\[((?:[^[\]]|\[[^\]]*\])*)\]\(\s*(<[^>]*>|[^)\s]+)((?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*)\)/g;
const REFERENCE = /^( {0,3}\[([^\]]+)\]:\s*)(<[^>]*>|\S+)(.*)$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

type Rewrite = (link: ContentLink) => string;

const unwrap = (href: string) => (href.startsWith('<') && href.endsWith('>') ? href.slice(1, -1) : href);

function rewriteLine(text: string, line: number, rewrite: Rewrite): string {
  const reference = REFERENCE.exec(text);
  if (reference) {
    const [, lead = '', label = '', href = '', rest = ''] = reference;
    return `${lead}${rewrite({ kind: 'link', href: unwrap(href), text: label, line })}${rest}`;
  }
  // Odd segments are code spans.
  return text
    .split(/(`+[^`]*`+)/)
    .map((segment, i) =>
      i % 2 === 1
        ? segment
        : segment.replace(
            INLINE,
            (_all, bang: string, label: string, href: string, title: string) =>
              `${bang}[${label}](${rewrite({ kind: bang ? 'image' : 'link', href: unwrap(href), text: label, line })}${title})`,
          ),
    )
    .join('');
}

/** `firstLine`: the file line the body starts on. */
export function rewriteLinks(body: string, firstLine: number, rewrite: Rewrite): string {
  let fence: string | undefined;
  return body
    .split('\n')
    .map((text, i) => {
      const marker = FENCE.exec(text)?.[1];
      if (marker && (!fence || marker.startsWith(fence))) {
        fence = fence ? undefined : marker;
        return text;
      }
      return fence ? text : rewriteLine(text, firstLine + i, rewrite);
    })
    .join('\n');
}

export function scanLinks(body: string, firstLine: number): ContentLink[] {
  const found: ContentLink[] = [];
  rewriteLinks(body, firstLine, (link) => {
    found.push(link);
    return link.href;
  });
  return found;
}

export function bodyFirstLine(raw: string, body: string): number {
  const at = body.trim() === '' ? -1 : raw.indexOf(body);
  return at < 0 ? 1 : raw.slice(0, at).split('\n').length;
}

/** Site-internal targets are root-relative: `/services`, `/blog/x#id`, not `//host/...`. */
export const isRootRelative = (href: string) => href.startsWith('/') && !href.startsWith('//');

export const filePath = (href: string) => decodeURI(href.replace(/[?#].*$/, ''));

/** `https://…`, `//host/…`, `mailto:…` */
export const isOtherSite = (href: string) => /^[a-z][a-z0-9+.-]*:|^\/\//i.test(href);
