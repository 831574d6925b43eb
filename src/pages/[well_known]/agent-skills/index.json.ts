import type { APIRoute, GetStaticPaths } from 'astro';
import { knowledge } from '../../../lib/agents/agent-documents.ts';
import { publishedSkills, skillsIndex } from '../../../lib/agents/agent-skills.ts';
import { jsonResponse } from '../../../lib/agents/responses.ts';

// Astro skips dot-folders under src/pages, so the folder name comes in as a parameter.
export const getStaticPaths = (() => [{ params: { well_known: '.well-known' } }]) satisfies GetStaticPaths;

/** Agent Skills discovery index: every skill with the sha256 digests of the files served beside it. */
export const GET: APIRoute = async () => jsonResponse(skillsIndex(publishedSkills(await knowledge())));
