import type { APIRoute } from 'astro';
import { siteModel } from '../lib/content/content.ts';
import { robotsTxt } from '../lib/agents/robots.ts';

export const GET: APIRoute = async () =>
  new Response(robotsTxt((await siteModel()).site.data), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
