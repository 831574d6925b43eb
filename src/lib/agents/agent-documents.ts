/** The JSON documents agents fetch, each built once from the site model and validated where a schema exists. */
import { siteModel, type SiteModel } from '../content/content.ts';
import { oncePer } from '../memo.ts';
import { absolute } from '../pages/urls.ts';
import { buildCapabilitiesDocument } from './capabilities-document.ts';
import { buildKnowledge } from './knowledge.ts';
import type { Knowledge } from '../../contract/knowledge.ts';
import { capabilitiesDocumentSchema } from '../../contract/capabilities-document.schema.ts';
import { assertMatchesSchema } from './json-schema-validator.ts';
import { buildContract, EXAMPLE_REQUESTS } from '../../contract/contract.ts';
import { guide } from '../../proposal/guide.ts';
import { summarize } from '../../proposal/summarize.ts';
import { exampleSubmitReply } from '../../contract/submit-replies.ts';
import { DOCUMENT_PATHS } from '../../contract/paths.ts';
import { handOver } from '../../integrations/handover.ts';

export async function capabilitiesSchema() {
  const model = await siteModel();
  return capabilitiesDocumentSchema(model.site.data.brand_slug, absolute(DOCUMENT_PATHS.capabilitiesSchema));
}

/** The capabilities document; the build fails if it does not match its published schema. */
export async function capabilitiesDocument() {
  const model = await siteModel();
  const doc = buildCapabilitiesDocument(model, absolute);
  assertMatchesSchema(DOCUMENT_PATHS.capabilities, await capabilitiesSchema(), doc);
  return doc;
}

let knowledgeOnce: Promise<Knowledge> | undefined;

/** The function's knowledge of a model, built once; the pages ask for it synchronously. */
export const knowledgeOf = oncePer((model: SiteModel) => buildKnowledge(model, absolute));

/** The function's knowledge, built once per build and shared by every route that needs it. */
export function knowledge(): Promise<Knowledge> {
  knowledgeOnce ??= siteModel().then((model) => {
    const facts = knowledgeOf(model);
    handOver('knowledge', facts);
    return facts;
  });
  return knowledgeOnce;
}

/** The proposal contract, with example responses computed from the content by the real actions. */
export async function proposalContract() {
  return contractOf(await knowledge());
}

export const contractOf = oncePer((k: Knowledge) =>
  buildContract(k, {
    guide: guide(k, EXAMPLE_REQUESTS.guide),
    summarize: summarize(k, EXAMPLE_REQUESTS.summarize),
    submit: exampleSubmitReply(k),
  }),
);
