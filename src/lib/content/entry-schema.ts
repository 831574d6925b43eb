import { z } from 'astro/zod';
import { AUDIENCE_IDS, CAPABILITY_IDS, ENGAGEMENT_MODEL_IDS, PAGE_IDS } from '../../contract/ids.ts';

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD (quote it in YAML)');
const text = z.string().trim().min(1, 'must not be empty');
const list = z.array(text).min(1, 'must list at least one item');
const yesNo = z.enum(['yes', 'no'], { message: 'must be "yes" or "no"' });
const url = z.url({ message: 'must be an absolute URL' });

/** An entry of one kind; a `draft` appears in no production output. */
const entry = <T extends z.ZodRawShape>(shape: T) => z.strictObject({ draft: z.boolean().default(false), ...shape });

/** Every file under content/ is one of these, chosen by its `kind` field. */
export const EntrySchema = z.discriminatedUnion('kind', [
  /** The one entry that names the partner and everything set once (content/site.md). */
  entry({
    kind: z.literal('site'),
    name: text,
    /** The capabilities field `positioning.why_<brand_slug>` (Astro reserves `slug` for entry ids). */
    brand_slug: z.string().regex(/^[a-z][a-z0-9]*$/, 'must be lower-case letters and digits, e.g. "kestrel"'),
    type: text,
    cloud_provider: text,
    cloud_provider_full_name: text,
    /** Production's base URL; previews and local runs use their own (src/integrations/site-url.ts). */
    canonical_url: url,
    email: z.email({ message: 'must be an email address' }),
    summary: text,
    cloud_partner_profile: url,
    delivery_regions: list,
    positioning: text,
    reasons: list,
    /** Rules agents must honour (spec part 1), rendered as prose and as `agent_guidance`. */
    agent_guidance: list,
    useful_intake_fields: list,
    schema_version: date,
    last_updated: date,
    /** Exact consent text shown beside the submit checkbox and stored with every request. */
    consent_text: text,
    /** Version of the consent text; change it whenever the text changes. */
    consent_version: date,
    /** How AI systems may use the content: robots.txt's Content-Signal and Content-Usage lines and AI crawler rules. */
    content_signals: z.strictObject({
      search: yesNo,
      /** Retrieval and grounding of an answer given now. */
      ai_input: yesNo,
      ai_train: yesNo,
    }),
  }),

  /** Intro and metadata of a page at a fixed path (content/pages/<id>.md). */
  entry({
    kind: z.literal('page'),
    page: z.enum(PAGE_IDS),
    title: text,
    description: text,
    /** Label in the site navigation; omit to keep the page out of the nav. */
    nav_label: text.optional(),
    nav_order: z.number().int().default(100),
  }),

  entry({
    kind: z.literal('audience'),
    id: z.enum(AUDIENCE_IDS),
    title: text,
    needs: list,
    outcomes: list,
    /** Company sizes (proposal `company_size` values) this audience usually covers. */
    company_sizes: list,
  }),

  entry({
    kind: z.literal('capability'),
    id: z.enum(CAPABILITY_IDS),
    name: text,
    includes: list,
    summary: text,
    /** Words in a question that suggest this capability (guide action). */
    keywords: list,
    order: z.number().int(),
  }),

  entry({
    kind: z.literal('engagement-model'),
    id: z.enum(ENGAGEMENT_MODEL_IDS),
    name: text,
    description: text,
    /** When this model fits best, one sentence (guide action). */
    best_when: text,
    /** Capabilities this model is usually suggested for (guide action). */
    suggested_for: z.array(z.enum(CAPABILITY_IDS)).default([]),
    order: z.number().int(),
  }),

  entry({
    kind: z.literal('program-support'),
    summary: text,
    startup_support: list,
    partner_program_support: list,
    /** Must say the provider decides eligibility, approval, amounts and credits. */
    disclaimer: text,
  }),

  entry({
    kind: z.literal('evidence'),
    competencies: z.string().regex(/^\d+$/, 'must be a whole number written as a string, e.g. "4"'),
    certifications: z.string().regex(/^\d+\+$/, 'must be a number with a trailing plus, e.g. "120+"'),
    customer_launches: z.literal('50+', { message: 'must be "50+" (rendered as "50+ customer launches")' }),
    source: url,
    /** Clients without a case study. Every case study's `client` joins the published list by itself. */
    other_clients: z.array(text).default([]),
  }),

  entry({
    kind: z.literal('case-study'),
    title: text,
    /** Client as it may be named publicly, or a neutral description. */
    client: text,
    industry: text,
    summary: text,
    capabilities: z.array(z.enum(CAPABILITY_IDS)).min(1),
    engagement_model: z.enum(ENGAGEMENT_MODEL_IDS),
    outcomes: list,
    published: date,
  }),

  entry({
    kind: z.literal('post'),
    title: text,
    description: text,
    author: text,
    published: date,
    tags: z.array(text).default([]),
  }),
]);

export type EntryData = z.output<typeof EntrySchema>;
/** The data of an entry of one kind. */
export type KindData<K extends EntryData['kind']> = Extract<EntryData, { kind: K }>;
export type SiteData = KindData<'site'>;
