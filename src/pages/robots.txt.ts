import type { APIRoute } from 'astro';
import { siteModel } from '../lib/content/content.ts';
import { robotsTxt } from '../lib/agents/robots.ts';
import { textResponse } from '../lib/agents/responses.ts';

export const GET: APIRoute = async () => textResponse(robotsTxt((await siteModel()).site.data));
