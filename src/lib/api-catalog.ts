/** RFC 9727 API catalog (`/.well-known/api-catalog`): one linkset entry per API the site offers. */
import { absolute, CAPABILITIES_SCHEMA_PATH } from './urls.ts';
import { AGENT_DOCUMENT_PATHS } from './link-headers.ts';

export function apiCatalog() {
  const described = {
    'service-desc': [{ href: absolute(AGENT_DOCUMENT_PATHS.openapi), type: 'application/openapi+json' }],
    'service-doc': [{ href: absolute(AGENT_DOCUMENT_PATHS.serviceDoc), type: 'text/html' }],
  };
  return {
    linkset: [
      {
        anchor: absolute('/api/capabilities'),
        ...described,
        describedby: [{ href: absolute(CAPABILITIES_SCHEMA_PATH), type: 'application/schema+json' }],
      },
      {
        anchor: absolute('/api/proposal'),
        ...described,
        // GET of the endpoint itself is the contract: schemas, limits, examples.
        'service-meta': [{ href: absolute('/api/proposal'), type: 'application/json' }],
      },
    ],
  };
}
