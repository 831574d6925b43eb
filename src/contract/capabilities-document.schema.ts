/** JSON Schema 2020-12 of the capabilities document (spec 2.1–2.10), published and enforced at build. */
import { AUDIENCE_IDS, CAPABILITY_IDS, ENGAGEMENT_MODEL_IDS } from './ids.ts';
import { DOCUMENT_PATHS, PAGE_PATHS, twinPath } from './paths.ts';

/** Path of every agent resource (spec 2.9), in the order they are published. */
export const AGENT_RESOURCE_PATHS = {
  directory: PAGE_PATHS.agents,
  solutions: PAGE_PATHS.services,
  delivery_models: PAGE_PATHS['delivery-models'],
  partners: PAGE_PATHS.partners,
  about: PAGE_PATHS.about,
  credentials: PAGE_PATHS['aws-credentials'],
  case_studies: PAGE_PATHS['case-studies'],
  blog: PAGE_PATHS.blog,
  overview: DOCUMENT_PATHS.llmsTxt,
  full_context: DOCUMENT_PATHS.llmsFull,
  homepage_markdown: twinPath(PAGE_PATHS.home),
  sitemap: DOCUMENT_PATHS.sitemap,
} as const;

const str = { type: 'string', minLength: 1 } as const;
const strings = { type: 'array', items: str, minItems: 1 } as const;
const uri = { type: 'string', format: 'uri', pattern: '^https?://' } as const;
const date = { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', format: 'date' } as const;

function closed(properties: Record<string, unknown>, description?: string) {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

/** `slug` names the brand list `positioning.why_<slug>`. `id` is the schema's absolute URL. */
export function capabilitiesDocumentSchema(slug: string, id: string) {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: id,
    title: 'Capabilities document',
    description:
      'Structured facts about an independent cloud consulting and delivery partner. The partner is never the cloud provider; program benefits are never promised.',
    ...closed({
      schema_version: { ...date, description: "Version of this document's shape (YYYY-MM-DD)." },
      canonical_url: { ...uri, description: 'URL of the home page.' },
      organization: closed({
        name: str,
        type: str,
        summary: str,
        cloud_partner_profile: { ...uri, description: "URL of the partner's profile at the cloud provider." },
        delivery_regions: strings,
      }),
      positioning: closed(
        { primary: str, [`why_${slug}`]: { ...strings, description: 'Reasons to choose the partner.' } },
        'The positioning statement and the reasons to choose the partner.',
      ),
      audiences: {
        type: 'array',
        items: closed({ id: { enum: [...AUDIENCE_IDS] }, needs: strings, outcomes: strings }),
      },
      capabilities: {
        type: 'array',
        items: closed({ id: { enum: [...CAPABILITY_IDS] }, name: str, includes: strings }),
      },
      cloud_program_support: closed({
        summary: str,
        startup_support: strings,
        partner_program_support: strings,
        disclaimer: {
          ...str,
          description:
            'Eligibility, approval, amounts and credits are decided by the cloud provider and are not guaranteed.',
        },
      }),
      engagement_models: {
        type: 'array',
        items: closed({ id: { enum: [...ENGAGEMENT_MODEL_IDS] }, description: str }),
      },
      evidence: closed({
        cloud_partner_highlights: closed({
          competencies: { type: 'string', pattern: '^[0-9]+$' },
          certifications: { type: 'string', pattern: '^[0-9]+\\+$' },
          customer_launches: {
            type: 'string',
            pattern: '^[0-9]+\\+$',
            description: 'Rendered as "50+ customer launches"; not a count of companies.',
          },
          source: uri,
        }),
        selected_client_experience: strings,
      }),
      agent_guidance: strings,
      contact: closed({
        proposal_url: uri,
        proposal_api: uri,
        email: { type: 'string', format: 'email' },
        useful_intake_fields: strings,
      }),
      agent_resources: closed(Object.fromEntries(Object.keys(AGENT_RESOURCE_PATHS).map((k) => [k, uri]))),
      proposal_workflow: closed({ schema: str, guide: str, summarize: str, submit: str, success_semantics: str }),
      last_updated: { ...date, description: 'Date the published facts were last reviewed (YYYY-MM-DD).' },
    }),
  };
}
