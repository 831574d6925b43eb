/** Field names of POST /api/proposal, shared by the contract, the function and the workspace. */
import type { CapabilityId, EngagementModelId } from '../schemas/ids.ts';

/** Intake fields of spec part 1, gathered before an introduction. */
export const INTAKE_FIELDS = [
  'business_outcome',
  'current_environment',
  'blocker',
  'timeline',
  'constraints',
  'cloud_context',
  'engagement_model',
] as const;
export type IntakeField = (typeof INTAKE_FIELDS)[number];

/** Intake fields a submit must carry; `cloud_context` is asked for "if known". */
export const REQUIRED_INTAKE_FIELDS = [
  'business_outcome',
  'current_environment',
  'blocker',
  'timeline',
  'constraints',
  'engagement_model',
] as const satisfies readonly IntakeField[];

export const COMPANY_SIZES = ['1-10', '11-50', '51-200', '201-1000', '1001+'] as const;
export type CompanySize = (typeof COMPANY_SIZES)[number];

/** The `primary_need` value for an asker who cannot tell yet which capability fits. */
export const NOT_SURE = 'not-sure';
/** How the site names `not-sure` to people. */
export const NOT_SURE_LABEL = 'Not sure yet';
/** `primary_need` is a capability id, or `not-sure` when the asker cannot tell yet. */
export type PrimaryNeed = CapabilityId | typeof NOT_SURE;

/** The fields of a guide request, after `action`. */
export const GUIDANCE_FIELDS = ['question', 'industry', 'company_size', 'primary_need'] as const;
/** Contact details a submit needs, and the optional one. */
export const CONTACT_FIELDS = ['name', 'email', 'company'] as const;
export const OPTIONAL_CONTACT_FIELDS = ['role'] as const;

export interface GuideRequest {
  action: 'guide';
  question: string;
  industry: string;
  company_size: CompanySize;
  primary_need: PrimaryNeed;
}

export interface IntakeFields {
  business_outcome?: string;
  current_environment?: string;
  blocker?: string;
  timeline?: string;
  constraints?: string;
  cloud_context?: string;
  engagement_model?: EngagementModelId;
}

export interface SummarizeRequest extends IntakeFields {
  action: 'summarize';
  question?: string;
  industry?: string;
  company_size?: CompanySize;
  primary_need?: PrimaryNeed;
  name?: string;
  email?: string;
  company?: string;
  role?: string;
}

export interface SubmitRequest extends IntakeFields {
  action: 'submit';
  consent: true;
  name: string;
  email: string;
  company: string;
  role?: string;
  question?: string;
  industry?: string;
  company_size?: CompanySize;
  primary_need?: PrimaryNeed;
  /** Version of the consent text the sender saw; defaults to the current one. */
  consent_version?: string;
  /** Honeypot: people leave it empty. */
  website?: string;
  /** Milliseconds since the epoch when the form was first shown (workspace only). */
  form_started_at?: number;
}

export type ProposalRequest = GuideRequest | SummarizeRequest | SubmitRequest;
export type ProposalAction = ProposalRequest['action'];
export const ACTIONS = ['guide', 'summarize', 'submit'] as const satisfies readonly ProposalAction[];

/** Largest accepted request body, in bytes; checked before parsing. */
export const MAX_BODY_BYTES = 32 * 1024;
/** Longest accepted free-text field, in characters. */
export const MAX_TEXT_LENGTH = 4000;
/** Longest accepted short field (names, industry, ...), in characters. */
export const MAX_SHORT_LENGTH = 200;

/** Human labels of every request field, for overviews, emails and the workspace. */
export const FIELD_LABELS = {
  question: 'Question',
  industry: 'Industry',
  company_size: 'Company size',
  primary_need: 'Primary need',
  business_outcome: 'Business outcome',
  current_environment: 'Current environment or product stage',
  blocker: 'Blocker or risk',
  timeline: 'Timeline',
  constraints: 'Security, reliability, compliance, data or budget constraints',
  cloud_context: 'Cloud account team, program or funding context',
  engagement_model: 'Desired engagement model',
  name: 'Name',
  email: 'Email',
  company: 'Company',
  role: 'Role',
} as const;

/** The top-level field a problem pointer names: "#/email" → "email"; "#" → "". */
export const fieldOfPointer = (pointer: string): string => pointer.replace(/^#\/?/, '').split('/')[0] ?? '';

/** The human label of a field name, or the name itself, capitalised, for fields without one. */
export const labelOfField = (name: string): string =>
  (FIELD_LABELS as Record<string, string>)[name] ?? `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
