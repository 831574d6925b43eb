/** Field names of POST /api/proposal, shared by the contract, the function and the workspace. */
import type { CapabilityId } from './ids.ts';

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

/** The `primary_need` of an asker who cannot tell yet which capability fits, and its name for people. */
export const NOT_SURE = 'not-sure';
export const NOT_SURE_LABEL = 'Not sure yet';
export type PrimaryNeed = CapabilityId | typeof NOT_SURE;

export const GUIDANCE_FIELDS = ['question', 'industry', 'company_size', 'primary_need'] as const;
export type GuidanceField = (typeof GUIDANCE_FIELDS)[number];
export const CONTACT_FIELDS = ['name', 'email', 'company'] as const;
export const OPTIONAL_CONTACT_FIELDS = ['role', 'phone'] as const;

export const ACTIONS = ['guide', 'summarize', 'submit'] as const;
export type ProposalAction = (typeof ACTIONS)[number];
/** The confirmation pages' actions (what a link names; the person's two answers): of the same API, never tools. */
export const CONSENT_ACTIONS = ['check_link', 'confirm_request', 'deny_request'] as const;
export type ConsentAction = (typeof CONSENT_ACTIONS)[number];
export const API_ACTIONS = [...ACTIONS, ...CONSENT_ACTIONS] as const;
export type ApiAction = (typeof API_ACTIONS)[number];

/** Largest accepted body in bytes (checked before parsing); longest free-text and short field in characters. */
export const MAX_BODY_BYTES = 32 * 1024;
export const MAX_TEXT_LENGTH = 4000;
export const MAX_SHORT_LENGTH = 200;

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
  phone: 'Phone',
} as const;

/** Every field a person fills in, in the workspace's order. */
export const FORM_FIELDS: readonly string[] = Object.keys(FIELD_LABELS);

/** The top-level field a problem pointer names: "#/email" → "email"; "#" → "". */
export const fieldOfPointer = (pointer: string): string => pointer.replace(/^#\/?/, '').split('/')[0] ?? '';

export const labelOfField = (name: string): string =>
  (FIELD_LABELS as Record<string, string>)[name] ?? `${name.charAt(0).toUpperCase()}${name.slice(1)}`;
