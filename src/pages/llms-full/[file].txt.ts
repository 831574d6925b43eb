import type { APIRoute, GetStaticPaths } from 'astro';
import { siteModel } from '../../lib/content/content.ts';
import { fullText, type SectionFile } from '../../lib/agents/llms.ts';
import { textResponse } from '../../lib/agents/responses.ts';
import { LLMS_FULL_SECTIONS_PATH } from '../../contract/paths.ts';

/** One section's full text, or one part of it (src/lib/agents/llms.ts keeps each within its size limit). */
export const getStaticPaths = (async () => {
  const model = await siteModel();
  return fullText(model).sections.map((file) => ({
    params: { file: file.path.slice(`${LLMS_FULL_SECTIONS_PATH}/`.length, -'.txt'.length) },
    props: { file },
  }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => textResponse((props as { file: SectionFile }).file.text);
