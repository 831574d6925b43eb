/**
 * The words each page shows around its content: `sections` in content/pages/<id>.md, one key per
 * heading, label or link the page's code places. Every key listed here must be written (the entry
 * schema checks it, with this description), and no other.
 */

/** The pages of content/pages/ that are not at a fixed path of the published interface. */
export const SITE_PAGE_IDS = ['not-found'] as const;

export const PAGE_SECTIONS = {
  home: {
    partner_record: 'name screen readers give the band with the tier, competencies and figures',
    clients: 'heading of the client logos',
    quote_link: 'link from the featured quote to its case study',
    deliver: 'heading of the capability cards',
    recent_work: 'heading of the newest case studies',
    all_case_studies: 'link to every case study',
    ask: 'heading of the question form',
    ask_text: 'sentence under it',
    why: 'heading of the reasons (content/site.md, reasons)',
    who: 'heading of the audiences',
    people: 'heading of the first people of content/people/',
    all_people: 'link to everyone on /about',
  },
  services: {
    contents: 'name of the list of capabilities at the top',
    includes: 'heading of what a capability includes',
    models: 'heading of the engagement models that fit it',
    ask_about: 'button under each capability, followed by its name',
  },
  'delivery-models': {
    best_when: 'label before an engagement model’s best_when',
    used_for: 'label before the capabilities it is often used for',
  },
  partners: {
    startup: 'heading of startup_support',
    partner_programs: 'heading of partner_program_support',
    who_decides: 'heading of the disclaimer',
  },
  about: {
    founded: 'label of the founding year',
    team: 'label of the headcount',
    people_count: 'word after the headcount, e.g. "people"',
    offices: 'label and heading of the offices',
    tier: 'label of the partner tier',
    competencies_count: 'words after the tier, before the number of competencies, e.g. "with"',
    competencies_word: 'word after that number, e.g. "competencies"',
    phone: 'label of the phone number',
    email: 'label of the email address',
    people: 'heading of everyone in content/people/',
    needs: 'label of an audience’s needs',
    outcomes: 'label of an audience’s outcomes',
    where: 'heading of the delivery regions',
  },
  'aws-credentials': {
    tier: 'heading of the partner tier',
    competencies: 'heading of the competencies',
    highlights: 'heading of the figures',
    source: 'label before the link to the partner profile',
    profile: 'text of that link',
    clients: 'heading of the clients',
  },
  'case-studies': {
    client: 'label of a case study’s client',
    capabilities: 'label of its capabilities',
    engagement_model: 'label of its engagement model',
    published: 'label of its date',
    outcomes: 'heading of its outcomes',
    more: 'button to /case-studies at the end of each',
    older: 'link to the next page of the index',
    newer: 'link to the previous page of the index',
  },
  blog: {
    tags: 'label before a post’s tags',
    older: 'link to the next page of the index',
    newer: 'link to the previous page of the index',
    tagged: 'title of a tag’s page, before the tag',
    all_posts: 'link from a tag’s page to /blog',
    by: 'word between a post’s date and its author, e.g. "by"',
  },
  agents: {},
  proposal: {},
  privacy: {
    legal_name: 'label of the controller’s registered name',
    address: 'label of its registered office',
    email: 'label of its email address',
    phone: 'label of its phone number',
    location: 'label before where a processor processes data, and the safeguard for a transfer',
    terms_link: 'text of the link to each processor’s terms',
    consent_quote: 'words before the consent text (on /proposal too)',
    consent_version: 'word before the consent text’s version',
    consent_record: 'heading of how consent is recorded',
    consent_methods: 'words before the list of ways consent is given',
    where: 'heading of where requests are stored',
    sending: 'heading of what the site sends, and its limits',
    counting: 'words before what each limit counts',
  },
  'not-found': {
    home: 'label of the link to the home page',
  },
} as const satisfies Record<string, Record<string, string>>;

/** The sections the privacy notice's body must have (`## Heading {#id}`): the page adds its facts to each. */
export const PRIVACY_SECTIONS = [
  'controller',
  'purposes',
  'legal-basis',
  'rights',
  'processors',
  'transfers',
  'retention',
  'technical',
] as const;

export type PageSectionKey<P extends keyof typeof PAGE_SECTIONS> = keyof (typeof PAGE_SECTIONS)[P] & string;
