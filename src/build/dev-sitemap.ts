/** `/sitemap.xml` in the dev preview; the build writes it with @astrojs/sitemap. Every page document is listed. */
import type { APIRoute } from 'astro';
import { siteModel } from '../lib/content.ts';
import { pageDocuments } from '../lib/documents.ts';
import { absolute } from '../lib/urls.ts';

export const GET: APIRoute = async () => {
  const urls = pageDocuments(await siteModel()).map((doc) => `  <url><loc>${absolute(doc.path)}</loc></url>`);
  return new Response(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`, {
    headers: { 'Content-Type': 'application/xml; charset=utf-8' },
  });
};
