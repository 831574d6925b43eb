/** Identifiers fixed by the published interface (spec 2.3, 2.4, 2.6). Content must use exactly these. */
export const AUDIENCE_IDS = ['startups', 'established-businesses'] as const;
export const CAPABILITY_IDS = [
  'cloud-engineering',
  'genai-and-contact-center',
  'devops-security-resilience',
  'managed-services-finops',
  'digital-experience-optimization',
] as const;
export const ENGAGEMENT_MODEL_IDS = [
  'assessment',
  'defined-project',
  'embedded-pod',
  'staff-augmentation',
  'managed-services',
] as const;
/** Pages that exist at fixed paths; `home` is `/`. */
export const PAGE_IDS = [
  'home',
  'agents',
  'services',
  'delivery-models',
  'partners',
  'about',
  'aws-credentials',
  'case-studies',
  'blog',
  'proposal',
  'privacy',
] as const;

export type AudienceId = (typeof AUDIENCE_IDS)[number];
export type CapabilityId = (typeof CAPABILITY_IDS)[number];
export type EngagementModelId = (typeof ENGAGEMENT_MODEL_IDS)[number];
export type PageId = (typeof PAGE_IDS)[number];
