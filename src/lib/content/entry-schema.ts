import { z } from 'astro/zod';
import { AUDIENCE_IDS, CAPABILITY_IDS, ENGAGEMENT_MODEL_IDS, PAGE_IDS } from '../../contract/ids.ts';
import { PAGE_SECTIONS, SITE_PAGE_IDS } from './page-sections.ts';
import { nearest } from '../../text/nearest.ts';

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD (quote it in YAML)');
const text = z.string().trim().min(1, 'must not be empty');
const list = z.array(text).min(1, 'must list at least one item');
const yesNo = z.enum(['yes', 'no'], { message: 'must be "yes" or "no"' });
const url = z.url({ message: 'must be an absolute URL' });
/** An image beside the content file (`./photo.svg`) or under public/ (`/images/x.svg`), with the words that describe it. */
const image = z.strictObject({
  src: text,
  /** What the image shows, for people who cannot see it. */
  alt: z.string().trim().min(1, 'must describe what the image shows (alt text)'),
});
/** A call to action: a heading and one sentence before the proposal button. */
const callToAction = z.strictObject({ heading: text, text });
const year = z.string().regex(/^\d{4}$/, 'must be a year written as text, e.g. "2016"');
/** A company that processes requests for the partner, as the privacy notice names it. */
const processor = z.strictObject({
  name: text,
  /** What it does with a request, e.g. "sends the confirmation email". */
  role: text,
  /** Where it processes data, and the safeguard for a transfer out of the UK or EU. */
  location: text,
  /** Its terms or data processing agreement. */
  terms: url,
});

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
    /** The company's registered name: the privacy notice's controller. */
    legal_name: text,
    /** The mark in the header of every page and the logo of the JSON-LD. */
    logo: image,
    phone: text,
    founded: year,
    /** People on the team, as text: "48". */
    headcount: z.string().regex(/^\d+\+?$/, 'must be a number written as text, e.g. "48"'),
    /** The first is the registered office: the controller's address on the privacy notice. */
    offices: z.array(z.strictObject({ city: text, address: text })).min(1, 'must list at least one office'),
    /** Who processes a request for the partner; the privacy notice lists those the running configuration uses. */
    processors: z.strictObject({
      /** Always: hosts the site and the function, and stores requests. */
      hosting: processor,
      /** CRM_PROVIDER=hubspot. */
      crm_hubspot: processor,
      /** CRM_PROVIDER=webhook: the partner's own CRM behind its webhook. */
      crm_webhook: processor,
      /** SMTP_URL and MAIL_FROM set. */
      email: processor,
      /** NOTIFY_WEBHOOK_URL set. */
      chat: processor,
    }),
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

  /** Intro, words and metadata of a page at a fixed path, and of the 404 page (content/pages/<id>.md). */
  entry({
    kind: z.literal('page'),
    page: z.enum([...PAGE_IDS, ...SITE_PAGE_IDS]),
    title: text,
    description: text,
    /** Label in the site navigation; omit to keep the page out of the nav. */
    nav_label: text.optional(),
    nav_order: z.number().int().default(100),
    /** A picture or diagram the page shows beside its first lines (the home page's hero). */
    image: image.optional(),
    /** The page's headings, labels and links, by the keys src/lib/content/page-sections.ts lists for it. */
    sections: z.record(z.string(), text).default({}),
    /** The call to action the page ends with: a heading and a sentence, above the proposal button. */
    cta: callToAction,
    /** On /blog and /case-studies: the call to action each post or case study ends with, unless it has its own. */
    entry_cta: callToAction.optional(),
  }).superRefine((page, ctx) => {
    const keys: readonly string[] = Object.keys(PAGE_SECTIONS[page.page]);
    for (const key of keys.filter((k) => !(k in page.sections)))
      ctx.addIssue({
        code: 'custom',
        path: ['sections', key],
        input: undefined,
        message: `must be the words for the ${(PAGE_SECTIONS[page.page] as Record<string, string>)[key]}`,
        params: { fix: `add it under sections: ${key}: ...` },
      });
    for (const key of Object.keys(page.sections).filter((k) => !keys.includes(k))) {
      const guess = nearest(key, keys);
      ctx.addIssue({
        code: 'custom',
        path: ['sections', key],
        input: page.sections[key],
        message: keys.length > 0 ? `must be one of: ${keys.join(', ')}` : 'must not be set: this page has no sections',
        params: { fix: guess ? `did you mean "${guess}"? Rename it.` : 'remove it' },
      });
    }
    if (['blog', 'case-studies'].includes(page.page) && !page.entry_cta)
      ctx.addIssue({
        code: 'custom',
        path: ['entry_cta'],
        input: undefined,
        message: 'must be a heading and a text: the call to action each of its entries ends with',
        params: { fix: 'add entry_cta: with heading: and text:' },
      });
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
    /** The partner tier the provider has awarded, and its badge. */
    tier: z.strictObject({ name: text, badge: image }),
    /** Each competency the provider has validated, named, with its badge; their count is `competencies`. */
    competencies: z.array(z.strictObject({ name: text, badge: image })).min(1, 'must list at least one competency'),
    certifications: z.string().regex(/^\d+\+$/, 'must be a number with a trailing plus, e.g. "120+"'),
    customer_launches: z.literal('50+', { message: 'must be "50+" (rendered as "50+ customer launches")' }),
    source: url,
    /** Clients without a case study, with their logos. Every case study's client joins the list by itself. */
    other_clients: z.array(z.strictObject({ name: text, logo: image.optional() })).default([]),
  }),

  entry({
    kind: z.literal('case-study'),
    title: text,
    /** Client as it may be named publicly, or a neutral description. */
    client: text,
    /** The client's logo, shown with the case study and on the logo walls; omit it for a client named neutrally. */
    logo: image.optional(),
    industry: text,
    summary: text,
    capabilities: z.array(z.enum(CAPABILITY_IDS)).min(1),
    engagement_model: z.enum(ENGAGEMENT_MODEL_IDS),
    outcomes: list,
    /** Up to three headline figures, shown large at the top: `value` "42", `label` "applications migrated". */
    figures: z
      .array(z.strictObject({ value: text, label: text }))
      .max(3, 'must list at most three figures')
      .default([]),
    /** What the client said, in their words, and who said it. */
    quote: z.strictObject({ text, name: text, role: text }).optional(),
    /** A diagram of the work, shown after the approach. */
    diagram: image.optional(),
    /** Its own closing call to action, instead of entry_cta of content/pages/case-studies.md. */
    cta: callToAction.optional(),
    published: date,
  }),

  entry({
    kind: z.literal('post'),
    title: text,
    description: text,
    /** The name of a person in content/people/: the post shows their photo and role. */
    author: text,
    published: date,
    /** Written as they should read ("Generative AI"); the tag's address is its lower-case form. */
    tags: z.array(text).default([]),
    /** Its own closing call to action, instead of entry_cta of content/pages/blog.md. */
    cta: callToAction.optional(),
  }),

  /** One person on the team (content/people/<slug>.md); the body is a short bio. */
  entry({
    kind: z.literal('person'),
    name: text,
    role: text,
    photo: image,
    /** Position on /about, lowest first. */
    order: z.number().int(),
  }),
]);

export type EntryData = z.output<typeof EntrySchema>;
/** The data of an entry of one kind. */
export type KindData<K extends EntryData['kind']> = Extract<EntryData, { kind: K }>;
export type SiteData = KindData<'site'>;
export type ImageData = z.output<typeof image>;
