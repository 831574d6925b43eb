import { getRssString } from '@astrojs/rss';
import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { capabilitiesDocument, capabilitiesSchema, knowledge, proposalContract } from '../lib/agents/published.ts';
import { aiCatalog, apiCatalog } from '../lib/agents/catalogs.ts';
import { proposalSkill, skillMdPath, skillsIndex } from '../lib/agents/agent-skills.ts';
import { headersFile } from '../lib/agents/headers-file.ts';
import { fullText, llmsTxt, sitemapMd } from '../lib/agents/llms.ts';
import { buildOpenApi } from '../lib/agents/openapi.ts';
import { robotsTxt } from '../lib/agents/robots.ts';
import { siteModel } from '../lib/content/content.ts';
import { handOver } from '../lib/handover.ts';
import { documentsByPath, pageDocuments, twinFile } from '../lib/pages/documents.ts';
import { absolute } from '../lib/pages/urls.ts';
import { DOCUMENT_PATHS, PAGE_PATHS, postPath, twinPath } from '../contract/paths.ts';
import {
  earlierMcpServerCard,
  mcpServerCard,
  registryAuthRecord,
  SERVER_CARD_MEDIA_TYPE,
} from '../lib/agents/mcp-server.ts';
import { METHOD_NOT_ALLOWED } from '../contract/mcp-server.ts';

/**
 * Every published file that is not a page, by its path: the JSON documents, the llms files (each
 * within its size limit, src/lib/agents/llms.ts), robots.txt, the skill's SKILL.md, the blog's RSS
 * feed, Netlify's headers file and, in the dev server, the pages' markdown twins. A rest parameter,
 * because Astro skips dot-folders such as .well-known and files starting with "_" under src/pages.
 * netlify.toml rewrites the published paths without `.json` to these files (/api/proposal: every
 * method the function does not take, GET among them) and gives the catalogs their media types.
 */
export const getStaticPaths = (async () => {
  const model = await siteModel();
  const k = await knowledge();
  const skill = proposalSkill(k);
  const blog = documentsByPath(model).get(PAGE_PATHS.blog)!;
  const { whole, sections } = fullText(model);
  const twins = pageDocuments(model).map((doc): [string, string] => [twinPath(doc.path).slice(1), twinFile(doc)]);
  // `astro build` writes the twins in one pass (src/integrations/build-outputs.ts): a route per twin
  // would double its routes. Handed over always: a build under NODE_ENV=test (the tests') runs with
  // import.meta.env.DEV set.
  handOver('twins', twins);
  // The partner's key for the MCP Registry's HTTP check, when the build is given one (nothing otherwise).
  const registryAuth = registryAuthRecord(process.env);
  // JSON in stable formatting.
  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  const files: Record<string, () => string | Promise<string>> = {
    'api/proposal.json': async () => json(await proposalContract()),
    'api/capabilities.json': async () => json(await capabilitiesDocument()),
    'schemas/capabilities.schema.json': async () => json(await capabilitiesSchema()),
    'openapi.json': async () => json(buildOpenApi(k, await capabilitiesSchema())),
    '.well-known/api-catalog.json': () => json(apiCatalog()),
    '.well-known/ai-catalog.json': () => json(aiCatalog(k, model.site.data)),
    // GET /mcp/server-card, a file without an extension and without a rewrite: the netlify.toml header
    // of its very path types it application/mcp-server-card+json (npm start: scripts/serve/untyped-files.ts).
    [DOCUMENT_PATHS.mcpServerCard.slice(1)]: () => json(mcpServerCard(k)),
    // The card's earlier home, which the July 2026 server-card draft marks "not recommended" (AI
    // catalogs now point at <endpoint>/server-card), in the earlier shape the scanners that probe it read.
    [DOCUMENT_PATHS.mcpServerCardWellKnown.slice(1)]: () => json(earlierMcpServerCard(k)),
    // GET /mcp: netlify.toml rewrites it here with status 405 (the function takes no GET).
    'mcp-method-not-allowed.json': () => json(METHOD_NOT_ALLOWED),
    ...(registryAuth ? { [DOCUMENT_PATHS.mcpRegistryAuth.slice(1)]: () => registryAuth } : {}),
    // The skill with the sha256 digest of the SKILL.md served beside it: exactly these bytes.
    '.well-known/agent-skills/index.json': () => json(skillsIndex([skill])),
    [skillMdPath(skill.name).slice(1)]: () => skill.skillMd,
    'llms.txt': () => llmsTxt(model),
    'llms-full.txt': () => whole,
    [DOCUMENT_PATHS.sitemapMd.slice(1)]: () => sitemapMd(model),
    ...Object.fromEntries(sections.map((f) => [f.path.slice(1), () => f.text])),
    'robots.txt': () => robotsTxt(model.site.data),
    // RSS 2.0; each item maps the fields it publishes, nothing more.
    'rss.xml': () =>
      getRssString({
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
      }),
    _headers: () => headersFile(model, { registryAuth: registryAuth !== undefined }),
    ...(import.meta.env.DEV ? Object.fromEntries(twins.map(([file, text]) => [file, () => text])) : {}),
  };
  return Object.entries(files).map(([file, body]) => ({ params: { file }, props: { body } }));
}) satisfies GetStaticPaths;

const MEDIA_TYPES: Record<string, string> = { json: 'application/json', md: 'text/markdown', xml: 'application/xml' };
/** Files whose type no extension says (netlify.toml types them for Netlify and `npm start`). */
const FILE_MEDIA_TYPES: Record<string, string> = { [DOCUMENT_PATHS.mcpServerCard.slice(1)]: SERVER_CARD_MEDIA_TYPE };

const mediaType = (file: string) => FILE_MEDIA_TYPES[file] ?? MEDIA_TYPES[file.split('.').pop()!] ?? 'text/plain';

// An explicit media type: the dev server sends it as is.
export const GET: APIRoute<InferGetStaticPropsType<typeof getStaticPaths>> = async ({ params, props }) =>
  new Response(await props.body(), {
    headers: { 'Content-Type': `${mediaType(params.file!)}; charset=utf-8` },
  });
