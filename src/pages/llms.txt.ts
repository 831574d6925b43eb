import type { APIRoute } from 'astro';
import { siteModel } from '../lib/content/content.ts';
import { pageDocuments } from '../lib/pages/documents.ts';
import { llmsTxt } from '../lib/agents/llms.ts';

export const GET: APIRoute = async () => {
  const model = await siteModel();
  return new Response(llmsTxt(model, pageDocuments(model)), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
};
