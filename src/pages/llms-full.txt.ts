import type { APIRoute } from 'astro';
import { siteModel } from '../lib/content.ts';
import { llmsFullTxt } from '../lib/llms.ts';

export const GET: APIRoute = async () => {
  const model = await siteModel();
  return new Response(llmsFullTxt(model), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
};
