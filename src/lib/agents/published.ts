/** The agent documents of the checked site model: what the routes publish and the function receives. */
import { siteModel } from '../content/content.ts';
import type { Knowledge } from '../../contract/knowledge.ts';
import { handOver } from '../handover.ts';
import { capabilitiesDocumentOf, capabilitiesSchemaOf, contractOf, knowledgeOf } from './agent-documents.ts';

export const capabilitiesSchema = async () => capabilitiesSchemaOf(await siteModel());

export const capabilitiesDocument = async () => capabilitiesDocumentOf(await siteModel());

/** The site's knowledge, handed over for the build to write beside the function. */
export async function knowledge(): Promise<Knowledge> {
  const facts = knowledgeOf(await siteModel());
  handOver('knowledge', facts);
  return facts;
}

/** The proposal contract, with example responses computed from the content by the real actions. */
export async function proposalContract() {
  return contractOf(await knowledge());
}
