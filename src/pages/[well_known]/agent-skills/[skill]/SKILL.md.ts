import type { APIRoute, GetStaticPaths } from 'astro';
import { knowledge } from '../../../../lib/agents/agent-documents.ts';
import { publishedSkills, type Skill } from '../../../../lib/agents/agent-skills.ts';
import { textResponse } from '../../../../lib/agents/responses.ts';

/** Each skill's SKILL.md, exactly the bytes the index's digest was computed from. */
export const getStaticPaths = (async () =>
  publishedSkills(await knowledge()).map((skill) => ({
    params: { well_known: '.well-known', skill: skill.name },
    props: { skill },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => textResponse((props as { skill: Skill }).skill.skillMd, 'text/markdown');
