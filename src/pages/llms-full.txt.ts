import type { APIRoute } from 'astro';
import { siteModel } from '../lib/content/content.ts';
import { llmsFullTxt } from '../lib/agents/llms.ts';

export const GET: APIRoute = async () => {
  const model = await siteModel();
  return new Response(llmsFullTxt(model), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
};
