/** The pages of a paginated index (cards), matched to the page documents that give their titles. */
import type { SiteModel } from '../content/content.ts';
import { pageDocuments } from './documents.ts';
import type { PageDocument } from './page-document.ts';
import { INDEX_PAGE_SIZE } from './index-page-size.ts';
import { archivePrefix } from '../../contract/paths.ts';

export interface IndexPage<T> {
  /** Route parameter: undefined for the first page, `archive/<n>` after it. */
  param: string | undefined;
  doc: PageDocument;
  items: T[];
  first: boolean;
  newer: string | undefined;
  older: string | undefined;
}

export function indexPages<T>(model: SiteModel, basePath: string, all: T[]): IndexPage<T>[] {
  const docs = pageDocuments(model).filter((d) => d.path === basePath || d.path.startsWith(archivePrefix(basePath)));
  return docs.map((doc, i) => ({
    param: i === 0 ? undefined : doc.path.slice(basePath.length + 1),
    doc,
    items: all.slice(i * INDEX_PAGE_SIZE, (i + 1) * INDEX_PAGE_SIZE),
    first: i === 0,
    newer: docs[i - 1]?.path,
    older: docs[i + 1]?.path,
  }));
}
