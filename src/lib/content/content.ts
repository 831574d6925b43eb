/** The site model once every problem of the content is known: the one entry point of every page and document. */
import { ContentError } from './error.ts';
import { checkLinks } from './link-check.ts';
import { loadSiteModel, type SiteModel } from './model.ts';
import { pageDocuments } from '../pages/documents.ts';

export type { SiteModel } from './model.ts';

/** Every problem throws together, in one error: the files', the entries' and the links' (against the pages built). */
async function checkedModel(): Promise<SiteModel> {
  const model = await loadSiteModel();
  const problems = [...model.problems];
  try {
    problems.push(...checkLinks(model.links, pageDocuments(model), model.failedPaths));
  } catch (error) {
    // Pages built from content with problems may fail in other ways: the problems are what to fix first.
    if (problems.length === 0) throw error;
  }
  if (problems.length > 0) throw new ContentError(problems);
  return model;
}

let cached: Promise<SiteModel> | undefined;

export async function siteModel(): Promise<SiteModel> {
  return (cached ??= checkedModel());
}
