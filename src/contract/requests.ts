/** The request types of POST /api/proposal, read off the published JSON Schemas (contract.ts). */
import type { ValidateFunction } from 'ajv';
import type { FromSchema } from 'json-schema-to-ts';
import type { RequestSchemas } from './contract.ts';
import type { GuidanceField, IntakeField } from './fields.ts';

export type GuideRequest = FromSchema<RequestSchemas['guide']>;
export type SummarizeRequest = FromSchema<RequestSchemas['summarize']>;
export type SubmitRequest = FromSchema<RequestSchemas['submit']>;
export type ConfirmRequest = FromSchema<RequestSchemas['confirm_request']>;
export type DenyRequest = FromSchema<RequestSchemas['deny_request']>;
export type LinkCheckRequest = FromSchema<RequestSchemas['check_link']>;
export type ProposalRequest = GuideRequest | SummarizeRequest | SubmitRequest;
export type ConsentAnswerRequest = ConfirmRequest | DenyRequest;
export type ApiRequest = ProposalRequest | ConsentAnswerRequest | LinkCheckRequest;

/** The intake and guidance fields a stored record keeps, each optional (a summarize may carry any). */
export type IntakeFields = Pick<SummarizeRequest, IntakeField>;
export type GuidanceFields = Pick<SummarizeRequest, GuidanceField>;

/** The request schemas compiled by ajv (.generated/validators.mjs): a body one accepts has the schema's type. */
export interface Validators {
  guide: ValidateFunction<GuideRequest>;
  summarize: ValidateFunction<SummarizeRequest>;
  submit: ValidateFunction<SubmitRequest>;
  confirm_request: ValidateFunction<ConfirmRequest>;
  deny_request: ValidateFunction<DenyRequest>;
  check_link: ValidateFunction<LinkCheckRequest>;
}
