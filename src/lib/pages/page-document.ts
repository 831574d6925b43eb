/** One published page as markdown: what documents.ts builds and every page, twin and feed renders. */
export interface PageDocument {
  /** Site path without trailing slash; `/` for home. */
  path: string;
  title: string;
  description: string;
  /** Markdown body without the H1 title. `{#id}` after a heading sets its anchor. */
  markdown: string;
  /** Section of llms.txt this page is listed in. */
  section: 'Company' | 'Services' | 'Evidence' | 'Case studies' | 'Blog' | 'Proposals and agents';
  /** Present on case studies and posts. */
  published?: string;
}
