/** RFC 9727 API catalog (`/.well-known/api-catalog`): one linkset entry per API the site offers, MCP included. */
import { absolute } from '../pages/urls.ts';
import { DOCUMENT_PATHS, PAGE_PATHS } from '../../contract/paths.ts';
import { SERVER_CARD_MEDIA_TYPE } from '../../proposal/mcp/server-info.ts';

export function apiCatalog() {
  const described = {
    'service-desc': [{ href: absolute(DOCUMENT_PATHS.openapi), type: 'application/openapi+json' }],
    'service-doc': [{ href: absolute(PAGE_PATHS.agents), type: 'text/html' }],
  };
  return {
    linkset: [
      {
        anchor: absolute(DOCUMENT_PATHS.capabilities),
        ...described,
        describedby: [{ href: absolute(DOCUMENT_PATHS.capabilitiesSchema), type: 'application/schema+json' }],
      },
      {
        anchor: absolute(DOCUMENT_PATHS.proposalApi),
        ...described,
        // GET of the endpoint itself is the contract: schemas, limits, examples.
        'service-meta': [{ href: absolute(DOCUMENT_PATHS.proposalApi), type: 'application/json' }],
      },
      {
        // The same actions as MCP tools; the server card describes the endpoint.
        anchor: absolute(DOCUMENT_PATHS.mcp),
        'service-desc': [{ href: absolute(DOCUMENT_PATHS.mcpServerCard), type: SERVER_CARD_MEDIA_TYPE }],
        'service-doc': [{ href: `${absolute(PAGE_PATHS.agents)}#mcp`, type: 'text/html' }],
      },
    ],
  };
}
