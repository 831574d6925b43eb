import rss from '@astrojs/rss';
import type { APIRoute } from 'astro';
import { siteModel } from '../lib/content/content.ts';
import { documentAt } from '../lib/pages/documents.ts';
import { PAGE_PATHS, postPath } from '../contract/paths.ts';
import { absolute } from '../lib/pages/urls.ts';

/** The blog as RSS 2.0; each item maps the fields it publishes, nothing more. */
export const GET: APIRoute = async () => {
  const model = await siteModel();
  const blog = documentAt(model, PAGE_PATHS.blog)!;
  return rss({
    title: `${model.site.data.name}: ${blog.title}`,
    description: blog.description,
    site: absolute('/'),
    items: model.posts.map((p) => ({
      title: p.data.title,
      description: p.data.description,
      link: absolute(postPath(p.slug)),
      pubDate: new Date(`${p.data.published}T00:00:00Z`),
      author: `${model.site.data.email} (${p.data.author})`,
      categories: p.data.tags,
    })),
  });
};
