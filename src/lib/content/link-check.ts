/** Every internal link in content checked against what the site publishes, naming file, line and the nearest match. */
import type { PageDocument } from '../pages/page-document.ts';
import { isOtherSite, type SourcedLink } from './links.ts';
import { headingAnchors } from '../pages/render-markdown.ts';
import { nearest } from '../../text/nearest.ts';
import { base } from '../pages/urls.ts';
import { DOCUMENT_PATHS, twinPath } from '../../contract/paths.ts';
import { PUBLIC_DIR } from './project-dirs.ts';
import type { Problem } from './problem.ts';
import { filesUnder } from './check.ts';

const normalise = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') : path);

/**
 * The problem of every link whose page or heading is not published; `known` are paths of entries
 * that failed their own checks (their problem is already reported, so a link to one is not).
 */
export function checkLinks(links: SourcedLink[], docs: PageDocument[], known: Iterable<string> = []): Problem[] {
  // Headings are read only from pages some link points into: most pages are never a link's target.
  const byPath = new Map(docs.map((doc) => [doc.path, doc]));
  const anchors = new Map<string, Set<string>>();
  const anchorsOf = (path: string): Set<string> | undefined => {
    const doc = byPath.get(path);
    if (doc && !anchors.has(path)) anchors.set(path, new Set(headingAnchors(doc.markdown)));
    return anchors.get(path);
  };
  const paths = new Set([
    ...docs.flatMap((d) => [d.path, twinPath(d.path)]),
    ...Object.values(DOCUMENT_PATHS),
    ...filesUnder(PUBLIC_DIR).map((f) => `/${f}`),
  ]);
  const unchecked = new Set([...known].flatMap((path) => [path, twinPath(path)]));
  const problems: Problem[] = [];
  for (const { file, line, column, field, href, context } of links) {
    const problem = (found: string, fix: string) =>
      problems.push({
        file,
        line,
        column,
        field,
        found: `link "${href}": ${found}`,
        expected: 'a link to a page or heading the site publishes, written from the site root',
        fix,
      });
    if (href.startsWith('#')) {
      const id = decodeURIComponent(href.slice(1));
      const pages = docs.filter((d) => d.markdown.includes(context));
      const ids = new Set(pages.flatMap((d) => [...(anchorsOf(d.path) ?? [])]));
      if (pages.length > 0 && !ids.has(id)) {
        const guess = nearest(id, ids);
        problem(
          `no heading "#${id}" on ${pages.map((p) => p.path).join(', ')}`,
          guess ? `did you mean #${guess}?` : 'link a heading of this page, or remove the anchor',
        );
      }
      continue;
    }
    if (!isOtherSite(href) && !href.startsWith('/')) {
      const guess = nearest(`/${href.replace(/^(\.\.?\/)+/, '')}`, paths);
      problem('a link relative to the file', `write it from the site root, e.g. "${guess ?? '/services'}"`);
      continue;
    }
    const url = URL.parse(href, base);
    if (url?.origin !== base.origin) continue; // mailto:, other sites, what is no URL
    const path = normalise(decodeURIComponent(url.pathname));
    if (unchecked.has(path)) continue;
    if (!paths.has(path)) {
      const guess = nearest(path, paths);
      problem(`no page at ${path}`, guess ? `did you mean ${guess}?` : 'link a page the site publishes');
      continue;
    }
    const id = decodeURIComponent(url.hash.slice(1));
    const ids = id ? anchorsOf(path) : undefined;
    if (id && ids && !ids.has(id)) {
      const guess = nearest(id, ids);
      problem(
        `${path} has no heading "#${id}"`,
        guess ? `did you mean ${path}#${guess}?` : `link ${path} itself, or one of its headings`,
      );
    }
  }
  return problems;
}
