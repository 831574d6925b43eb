/** A page's markdown twin as served: a short YAML frontmatter, then the page as markdown. */
import type { PageDocument } from './page-document.ts';
import { twinMarkdown } from './documents.ts';
import { absolute } from './urls.ts';
import { twinPath } from '../../contract/paths.ts';

/** JSON strings are valid YAML scalars, so any title survives quoting. */
export function twinFile(doc: PageDocument, lastUpdated: string): string {
  const frontmatter = [
    `title: ${JSON.stringify(doc.title)}`,
    `description: ${JSON.stringify(doc.description)}`,
    `canonical_url: ${absolute(doc.path)}`,
    `last_updated: "${lastUpdated}"`,
  ].join('\n');
  return `---\n${frontmatter}\n---\n\n${twinMarkdown(doc)}`;
}

/** Every page's twin: its file under the site root (`blog/x.md`) and its text. */
export function twinFiles(docs: PageDocument[], updated: (doc: PageDocument) => string): [string, string][] {
  return docs.map((doc) => [twinPath(doc.path).slice(1), twinFile(doc, updated(doc))]);
}
