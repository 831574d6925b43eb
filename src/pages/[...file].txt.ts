import type { APIRoute, GetStaticPaths } from 'astro';
import { siteModel, type SiteModel } from '../lib/content/content.ts';
import { fullText, llmsTxt } from '../lib/agents/llms.ts';
import { robotsTxt } from '../lib/agents/robots.ts';
import { textResponse } from '../lib/agents/responses.ts';

/** /llms.txt, /llms-full.txt, each section's full text (src/lib/agents/llms.ts keeps each within its size limit) and /robots.txt. */
function files(model: SiteModel): Map<string, () => string> {
  const { whole, sections } = fullText(model);
  return new Map([
    ['llms', () => llmsTxt(model)],
    ['llms-full', () => whole],
    ...sections.map((f): [string, () => string] => [f.path.slice(1, -'.txt'.length), () => f.text]),
    ['robots', () => robotsTxt(model.site.data)],
  ]);
}

export const getStaticPaths = (async () =>
  [...files(await siteModel()).keys()].map((file) => ({ params: { file } }))) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ params }) => textResponse(files(await siteModel()).get(params.file!)!());
