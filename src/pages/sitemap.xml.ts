import type { APIRoute } from 'astro';
import { siteModel } from '../lib/content.ts';
import { pageDocuments } from '../lib/documents.ts';
import { sitemapXml } from '../lib/sitemap.ts';

export const GET: APIRoute = async () => {
  const model = await siteModel();
  return new Response(sitemapXml(model, pageDocuments(model)), {
    headers: { 'Content-Type': 'application/xml; charset=utf-8' },
  });
};
