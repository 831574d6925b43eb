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

/** An image as published: `src` is the site path of the file; its size comes from the image pipeline. */
export interface Image {
  src: string;
  alt: string;
}

export interface Card {
  title: string;
  href: string;
  text: string;
  meta: string;
  /** Shown as a `<time>` before the meta line: YYYY-MM-DD, shown as people write dates. */
  date?: string;
  tags?: Link[];
  /** A logo or portrait above the title. */
  image?: Image | undefined;
}

/** A person as pages show them: photo, name, role and a short bio (markdown). */
export interface PersonCard {
  id: string;
  name: string;
  role: string;
  photo: Image;
  bio: string;
}

export type Block =
  /** Markdown as written (content bodies); `mdx` renders an .mdx body with the site's components. */
  | { type: 'md'; markdown: string; class?: string | undefined; mdx?: CollectionEntry<'mdx'> | undefined }
  /** The home page's top: its H1 and lead (the twin's title and summary line), buttons, and a picture beside them. */
  | { type: 'hero'; title: string; lead: string; links: (Link & { primary?: boolean })[]; image?: Image | undefined }
  /** A picture or diagram with its caption; `eager` for one in the first screen. */
  | { type: 'image'; image: Image; caption?: string | undefined; eager?: boolean; class?: string }
  /** Client logos, each linked to its case study where there is one. */
  | { type: 'logos'; items: { name: string; logo?: Image | undefined; href?: string | undefined }[]; label: string }
  /** Badges with their names: the partner tier and the competencies. */
  | { type: 'badges'; items: { name: string; badge: Image }[] }
  | { type: 'people'; people: PersonCard[]; level?: 2 | 3 }
  /** Words a person said, and who said it. */
  | { type: 'quote'; text: string; name: string; role: string; link?: Link | undefined }
  /** Who wrote a post, with their photo and role, and when. */
  | { type: 'byline'; name: string; role: string; photo: Image; href: string; date: string }
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
const img = (i: Image) => `![${i.alt.replace(/[[\]]/g, '')}](${i.src})`;

const MONTHS = 'January February March April May June July August September October November December'.split(' ');
/** `2026-03-17` → `17 March 2026`: dates as people write them (the ISO form stays in `datetime` and the JSON). */
export function humanDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return `${d} ${MONTHS[(m ?? 1) - 1]} ${y}`;
}
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
            {
              type: 'p',
              text: c.date || c.meta ? `*${[c.date && humanDate(c.date), c.meta].filter(Boolean).join(' · ')}*` : '',
            },
            { type: 'p', text: c.text },
            { type: 'list', items: (c.tags ?? []).map((t) => `[${t.label}](${t.href})`) },
          ]),
        )
        .join('\n\n');
    case 'actions':
    case 'pager':
      return list(b.links.map((l) => `[${l.label}](${l.href})`));
    case 'hero':
      return [list(b.links.map((l) => `[${l.label}](${l.href})`)), b.image && img(b.image)]
        .filter(Boolean)
        .join('\n\n');
    case 'image':
      return [img(b.image), b.caption && `*${b.caption}*`].filter(Boolean).join('\n');
    case 'logos':
      return list(b.items.map((c) => (c.href ? `[${c.name}](${c.href})` : c.name)));
    case 'badges':
      return list(b.items.map((x) => `${img(x.badge)} ${x.name}`));
    case 'people':
      return b.people
        .map((x) => `${'#'.repeat(b.level ?? 3)} ${x.name} {#${x.id}}\n\n*${x.role}*\n\n${img(x.photo)}\n\n${x.bio}`)
        .join('\n\n');
    case 'quote':
      return `> ${b.text}\n>\n> ${b.name}, ${b.role}${b.link ? ` ([${b.link.label}](${b.link.href}))` : ''}`;
    case 'byline':
      return `*${humanDate(b.date)}, by [${b.name}](${b.href}), ${b.role}.*`;
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
