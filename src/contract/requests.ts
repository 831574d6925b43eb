/** The request types of POST /api/proposal, read off the published JSON Schemas (contract.ts). */
import type { ErrorObject } from 'ajv';
import type { FromSchema } from 'json-schema-to-ts';
import type { RequestSchemas } from './contract.ts';
import type { GuidanceField, IntakeField } from './fields.ts';

export type GuideRequest = FromSchema<RequestSchemas['guide']>;
export type SummarizeRequest = FromSchema<RequestSchemas['summarize']>;
export type SubmitRequest = FromSchema<RequestSchemas['submit']>;
export type ProposalRequest = GuideRequest | SummarizeRequest | SubmitRequest;

/** The intake and guidance fields a stored record keeps, each optional (a summarize may carry any). */
export type IntakeFields = Pick<SummarizeRequest, IntakeField>;
export type GuidanceFields = Pick<SummarizeRequest, GuidanceField>;

/** A request schema compiled by ajv (.generated/validators.mjs): a body it accepts has the schema's type. */
export interface Validator<T> {
  (data: unknown): data is T;
  errors?: ErrorObject[] | null;
}
export interface Validators {
  guide: Validator<GuideRequest>;
  summarize: Validator<SummarizeRequest>;
  submit: Validator<SubmitRequest>;
}
