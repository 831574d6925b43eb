import type { APIRoute } from 'astro';
import { siteModel } from '../lib/content/content.ts';
import { fullText } from '../lib/agents/llms.ts';

export const GET: APIRoute = async () => {
  const model = await siteModel();
  return new Response(fullText(model).whole, {
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
};
