import type { APIRoute } from 'astro';
import { siteModel } from '../lib/content/content.ts';
import { llmsTxt } from '../lib/agents/llms.ts';
import { textResponse } from '../lib/agents/responses.ts';

export const GET: APIRoute = async () => textResponse(llmsTxt(await siteModel()));
