import type { APIRoute } from 'astro';
import { siteModel } from '../lib/content.ts';
import { robotsTxt } from '../lib/robots.ts';

export const GET: APIRoute = async () =>
  new Response(robotsTxt((await siteModel()).site.data), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
