/**
 * URL elicitation for a 2025-era client that declared it at initialize (./mcp-session.ts): the tool
 * call answers the `-32042` error (URLElicitationRequiredError) with the partner's confirmation page,
 * the same page and grant a 2026-07-28 client is sent to, and the client retries the same call once
 * the person confirmed. Those revisions carry no requestState back, so the grant is found by the
 * idempotency key (./grant.ts, grantForKey): the retry submits url_page, vouched for by the partner.
 */
import type { UrlElicitationRequiredError } from '@modelcontextprotocol/server';
import { problem, type Reply } from '../../contract/http.ts';
import type { ConsentEvidence } from '../../contract/consent.ts';
import type { ProposalsStore } from '../store/blobs.ts';
import { linkToken, linkUrl } from '../submit/consent-links.ts';
import { grantForKey, type Grant } from './grant.ts';

export const PAGE_MESSAGE =
  "Please confirm on the partner's page that you want this proposal request sent, then come back here.";

/** The consent to submit with once the person confirmed; otherwise throws the -32042 error with the page. */
export async function legacyUrlConsent(
  sdk: { UrlElicitationRequiredError: typeof UrlElicitationRequiredError },
  secret: string,
  store: ProposalsStore,
  call: { draftOf: Pick<Grant, 'draft' | 'version' | 'key'>; asserted: ConsentEvidence; siteUrl: string },
): Promise<{ refuse: Reply } | { consent: ConsentEvidence }> {
  const { draftOf, asserted } = call;
  const grant = await grantForKey(store, secret, draftOf, new Date());
  if (grant.draft !== draftOf.draft || grant.version !== draftOf.version)
    return {
      refuse: problem(
        'invalid-request',
        'This idempotency_key was first sent with another draft or consent version; send a new request with a new key. Nothing was submitted.',
      ),
    };
  if (grant.confirmed_at !== undefined)
    return { consent: { ...asserted, method: 'url_page', vouched_by: 'first_party' } };
  const url = linkUrl(call.siteUrl, grant.id, 'confirm', linkToken(secret, grant.id, 'confirm'));
  throw new sdk.UrlElicitationRequiredError([{ mode: 'url', message: PAGE_MESSAGE, url, elicitationId: grant.id }]);
}
