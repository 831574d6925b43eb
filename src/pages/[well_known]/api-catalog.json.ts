import type { APIRoute, GetStaticPaths } from 'astro';
import { jsonResponse } from '../../lib/json-response.ts';
import { absolute } from '../../lib/urls.ts';

// Astro skips dot-folders under src/pages, so the folder name comes in as a parameter. The file
// gets a .json extension (static servers type files by extension); netlify.toml rewrites the
// published path /.well-known/api-catalog to it.
export const getStaticPaths = (() => [{ params: { well_known: '.well-known' } }]) satisfies GetStaticPaths;

/** RFC 9727 API catalog: where the API is described and documented. */
export const GET: APIRoute = () =>
  jsonResponse(
    {
      linkset: [
        {
          anchor: absolute('/api/proposal'),
          'service-desc': [{ href: absolute('/openapi.json'), type: 'application/openapi+json' }],
          'service-doc': [{ href: absolute('/agents'), type: 'text/html' }],
          'service-meta': [{ href: absolute('/api/capabilities'), type: 'application/json' }],
        },
      ],
    },
  );
