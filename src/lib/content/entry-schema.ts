import { z } from 'astro/zod';
import { AUDIENCE_IDS, CAPABILITY_IDS, ENGAGEMENT_MODEL_IDS, PAGE_IDS } from '../../contract/ids.ts';

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD (quote it in YAML)');
const text = z.string().trim().min(1, 'must not be empty');
const list = z.array(text).min(1, 'must list at least one item');
const yesNo = z.enum(['yes', 'no'], { message: 'must be "yes" or "no"' });
const url = z.url({ message: 'must be an absolute URL' });

/** Fields every entry may carry. */
const common = {
  /** Unpublished: appears in no production output. */
  draft: z.boolean().default(false),
};

/** Every file under content/ is one of these, chosen by its `kind` field. */
export const EntrySchema = z.discriminatedUnion('kind', [
  /** The one entry that names the partner and everything set once (content/site.md). */
  z.strictObject({
    ...common,
    kind: z.literal('site'),
    /** Partner's display name, used everywhere the partner is named. */
    name: text,
    /** Lower-case brand slug: the capabilities field `positioning.why_<brand_slug>`. (Not `slug`: Astro reserves that name for entry ids.) */
    brand_slug: z.string().regex(/^[a-z][a-z0-9]*$/, 'must be lower-case letters and digits, e.g. "kestrel"'),
    /** Organisation type, e.g. "Independent cloud consulting and delivery partner". */
    type: text,
    /** Cloud provider's short name (e.g. "AWS"); the partner is never this. */
    cloud_provider: text,
    /** Cloud provider's full name (e.g. "Amazon Web Services"). */
    cloud_provider_full_name: text,
    /** Canonical base URL of the site (production); previews and local runs use their own (src/integrations/site-url.ts). */
    canonical_url: url,
    /** Public contact address shown on pages and in the capabilities document. */
    email: z.email({ message: 'must be an email address' }),
    /** One-paragraph summary of the organisation. */
    summary: text,
    /** URL of the partner's profile at the cloud provider. */
    cloud_partner_profile: url,
    delivery_regions: list,
    /** The one-sentence positioning statement. */
    positioning: text,
    /** Reasons to choose the partner (`positioning.why_<slug>`). */
    reasons: list,
    /** Rules agents must honour (spec part 1), rendered as prose and as `agent_guidance`. */
    agent_guidance: list,
    /** Intake fields worth preparing (`contact.useful_intake_fields`). */
    useful_intake_fields: list,
    /** Version of the capabilities document's shape. */
    schema_version: date,
    /** Date the published facts were last reviewed. */
    last_updated: date,
    /** Exact consent text shown beside the submit checkbox and stored with every request. */
    consent_text: text,
    /** Version of the consent text; change it whenever the text changes. */
    consent_version: date,
    /**
     * How AI systems may use the site's content, "yes" or "no" each. Published in robots.txt as a
     * `Content-Signal:` line (contentsignals.org), a `Content-Usage:` line (IETF aipref) and the
     * rules for named AI crawlers.
     */
    content_signals: z.strictObject({
      /** Building a search index and linking to or quoting pages in results. */
      search: yesNo,
      /** Feeding pages to an AI model answering a question right now (retrieval, grounding). */
      ai_input: yesNo,
      /** Training or fine-tuning AI models. */
      ai_train: yesNo,
    }),
  }),

  /** Intro and metadata of a page at a fixed path (content/pages/<id>.md). */
  z.strictObject({
    ...common,
    kind: z.literal('page'),
    page: z.enum(PAGE_IDS),
    title: text,
    /** Meta description and llms.txt blurb, one sentence. */
    description: text,
    /** Label in the site navigation; omit to keep the page out of the nav. */
    nav_label: text.optional(),
    nav_order: z.number().int().default(100),
  }),

  z.strictObject({
    ...common,
    kind: z.literal('audience'),
    id: z.enum(AUDIENCE_IDS),
    title: text,
    needs: list,
    outcomes: list,
    /** Company sizes (proposal `company_size` values) this audience usually covers. */
    company_sizes: list,
  }),

  z.strictObject({
    ...common,
    kind: z.literal('capability'),
    id: z.enum(CAPABILITY_IDS),
    name: text,
    includes: list,
    /** One sentence on the outcome this capability delivers. */
    summary: text,
    /** Words in a question that suggest this capability (guide action). */
    keywords: list,
    order: z.number().int(),
  }),

  z.strictObject({
    ...common,
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

  z.strictObject({
    ...common,
    kind: z.literal('program-support'),
    summary: text,
    startup_support: list,
    partner_program_support: list,
    /** Must say the provider decides eligibility, approval, amounts and credits. */
    disclaimer: text,
  }),

  z.strictObject({
    ...common,
    kind: z.literal('evidence'),
    competencies: z.string().regex(/^\d+$/, 'must be a whole number written as a string, e.g. "4"'),
    certifications: z.string().regex(/^\d+\+$/, 'must be a number with a trailing plus, e.g. "120+"'),
    customer_launches: z.literal('50+', { message: 'must be "50+" (rendered as "50+ customer launches")' }),
    source: url,
    /** Clients without a case study. Every case study's `client` joins the published list by itself. */
    other_clients: z.array(text).default([]),
  }),

  z.strictObject({
    ...common,
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

  z.strictObject({
    ...common,
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
export type PageData = KindData<'page'>;
