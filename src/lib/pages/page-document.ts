/**
 * One published page as data: blocks that src/components/blocks.astro renders to HTML and
 * `blocksMarkdown` renders to markdown for the twin and llms files, so the two agree by construction.
 * Text in blocks is inline markdown; links in it are absolute (the HTML makes own-site ones root-relative).
 */
import type { CollectionEntry } from 'astro:content';

export interface Link {
  label: string;
  href: string;
}

export interface Card {
  title: string;
  href: string;
  text: string;
  meta: string;
  /** Shown as a `<time>` before the meta line. */
  date?: string;
  tags?: Link[];
}

export type Block =
  /** Markdown as written (content bodies); `mdx` renders an .mdx body with the site's components. */
  | { type: 'md'; markdown: string; class?: string | undefined; mdx?: CollectionEntry<'mdx'> | undefined }
  /** The home page's top: its H1 and lead (the twin's title and summary line), then buttons. */
  | { type: 'hero'; title: string; lead: string; links: (Link & { primary?: boolean })[] }
  | { type: 'p'; text: string; class?: string | undefined }
  | { type: 'heading'; text: string; id?: string | undefined; level?: 2 | 3 }
  | { type: 'list'; items: string[]; class?: string | undefined }
  | { type: 'table'; head: string[]; rows: string[][]; rowIds?: string[]; label?: string }
  | { type: 'facts'; facts: [string, string][] }
  | { type: 'code'; text: string }
  | { type: 'cards'; cards: Card[]; level?: 2 | 3 }
  /** Buttons: the primary ones first. */
  | { type: 'actions'; links: (Link & { primary?: boolean })[] }
  | { type: 'pager'; links: Link[] }
  /** A `<section>` (named by its first heading), `<nav>` or `<div>` around blocks. */
  | { type: 'group'; blocks: Block[]; tag?: 'section' | 'nav' | 'div'; class?: string; label?: string }
  /** A form: the page shows its HTML, the twin says in blocks what it asks (tools: the workspace's WebMCP tools). */
  | { type: 'form'; html: string; twin: Block[]; tools?: string };

/** One published page: what documents.ts builds and every page, twin and feed renders. */
export interface PageDocument {
  /** Site path without trailing slash; `/` for home. */
  path: string;
  title: string;
  description: string;
  blocks: Block[];
  /** The blocks as markdown, without the H1 title. `{#id}` after a heading sets its anchor. */
  markdown: string;
  /** Section of llms.txt this page is listed in. */
  section: 'Company' | 'Services' | 'Evidence' | 'Case studies' | 'Blog' | 'Proposals and agents';
  /** Present on case studies and posts. */
  published?: string;
  /**
   * When the page last changed: an entry when it was published, a listing when its newest entry
   * was, every other page when the site's facts were last reviewed (`last_updated` in content/site.md).
   * Feeds the twin's frontmatter, the sitemap and JSON-LD.
   */
  updated: string;
  /** Cards and tables use the full content width. */
  wide?: boolean;
}

const list = (items: string[]) => items.map((i) => `- ${i}`).join('\n');
const cell = (text: string) => text.replace(/\|/g, '\\|');
const row = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;

function blockMarkdown(b: Block): string {
  switch (b.type) {
    case 'md':
      return b.markdown;
    case 'p':
      return b.text;
    case 'heading':
      return `${'#'.repeat(b.level ?? 2)} ${b.text}${b.id ? ` {#${b.id}}` : ''}`;
    case 'list':
      return list(b.items);
    case 'table':
      return [row(b.head), row(b.head.map(() => '---')), ...b.rows.map(row)].join('\n');
    case 'facts':
      return list(b.facts.map(([term, value]) => `**${term}:** ${value}`));
    case 'code':
      return `\`\`\`\n${b.text}\n\`\`\``;
    case 'cards':
      return b.cards
        .map((c) =>
          blocksMarkdown([
            { type: 'heading', text: `[${c.title}](${c.href})`, level: b.level ?? 2 },
            { type: 'p', text: c.date || c.meta ? `*${[c.date, c.meta].filter(Boolean).join(' · ')}*` : '' },
            { type: 'p', text: c.text },
            { type: 'list', items: (c.tags ?? []).map((t) => `[${t.label}](${t.href})`) },
          ]),
        )
        .join('\n\n');
    case 'actions':
    case 'pager':
    case 'hero':
      return list(b.links.map((l) => `[${l.label}](${l.href})`));
    case 'group':
      return blocksMarkdown(b.blocks);
    case 'form':
      return blocksMarkdown(b.twin);
  }
}

/** JSON for a `<script>` data block (JSON-LD, the WebMCP tools): `<` escaped so no text can close the element. */
export const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

export function blocksMarkdown(blocks: Block[]): string {
  return blocks
    .map(blockMarkdown)
    .filter((md) => md.trim() !== '')
    .join('\n\n');
}
