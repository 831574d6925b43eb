/**
 * Consent asked over MCP, once, about a draft already checked (schema and guard). URL elicitation (for
 * a 2025-era client, the -32042 error) sends the person to /confirm/yes, which shows the consent text
 * and records the press on the key's grant (./grants.ts); form elicitation shows the text word for
 * word. Both are the host's word (`mcp_host`): a page the client can open proves nothing about the
 * mailbox, so strict mode still holds the request and the email's link still makes it first_party.
 * The requestState is signed with CONSENT_SECRET, bound to the draft's digest, consent version and key.
 */
import { hash } from 'node:crypto';
import type { InputRequiredResult, ServerContext } from '@modelcontextprotocol/server';
import { problem, type ProblemType, type Reply } from '../../contract/http.ts';
import type { ConsentEvidence } from '../../contract/consent.ts';
import { keyInUse } from '../store/keys.ts';
import { linkToken, linkUrl } from '../notify/links.ts';
import { canonicalJson } from '../submit/key.ts';
import type { Intake } from '../actions/pipeline.ts';
import type { McpSdk } from '../doors/mcp.ts';
import { answerGrant, grantForKey, keyGrant, readGrant, type Grant } from './grants.ts';
import { ELICITING_REVISION, type DeclaredSession } from './session.ts';

const KEY = 'consent';

/** What the round trip's signed state holds: never the draft, only its digest. */
type ConsentState = { draft: string; version: string; key: string; grant: string };

export type Codec = {
  mint: (state: ConsentState) => Promise<string>;
  verify: (wire: string, ctx: ServerContext) => Promise<ConsentState>;
};

/** The SDK's codec: its methods use no `this`, so the door may hand `verify` on alone. */
export const consentCodec = (sdk: McpSdk, secret: string | undefined): Codec | undefined =>
  secret === undefined ? undefined : sdk.createRequestStateCodec<ConsentState>({ key: secret, ttlSeconds: 900 });

/** The elicitation modes the client of this request declares (2026-07-28: in its envelope; `{}` means form). */
function modes(sdk: McpSdk, ctx: ServerContext): { form: boolean; url: boolean } {
  const caps = (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[sdk.CLIENT_CAPABILITIES_META_KEY];
  const elicitation = (caps as { elicitation?: Record<string, unknown> } | undefined)?.elicitation;
  if (elicitation === undefined) return { form: false, url: false };
  return { form: Object.keys(elicitation).length === 0 || 'form' in elicitation, url: 'url' in elicitation };
}

const refused = (detail: string, type: ProblemType = 'consent-required'): { refuse: Reply } => ({
  refuse: problem(type, `${detail} Nothing was submitted.`),
});
const DECLINED = 'The person declined to send this request.';

export interface ConsentCall {
  args: Record<string, unknown>;
  key: unknown;
  asserted: ConsentEvidence;
  session?: DeclaredSession | undefined;
  /** The pipeline's check of the draft (schema, spam checks, guard): its problem, when it has one. */
  check: () => Promise<Reply | undefined>;
  /** The site's words for the draft, for the confirmation page. */
  summary: Grant['summary'];
}

/** What a submit does about consent: `ask` (the input-required result), `refuse` (a problem), or the `consent` to submit with. */
export async function mcpConsent(
  intake: Intake,
  sdk: McpSdk,
  codec: Codec | undefined,
  ctx: ServerContext,
  call: ConsentCall,
): Promise<{ ask: InputRequiredResult } | { refuse: Reply } | { consent: ConsentEvidence }> {
  const { asserted, key } = call;
  const secret = intake.config.consent.secret;
  const declared = modes(sdk, ctx);
  const eliciting = asserted.mcp?.protocol_version === ELICITING_REVISION && (declared.form || declared.url);
  if (codec === undefined || secret === undefined || typeof key !== 'string') return { consent: asserted };
  if (!(eliciting || call.session?.url)) {
    // A person's decline stands when the same key comes back through a client that does not ask.
    const earlier = await keyGrant(intake.store, secret, key);
    return earlier?.declined_at === undefined ? { consent: asserted } : refused(DECLINED);
  }
  // Asked once, about a draft that would be accepted; a key already stored answers with its request.
  const problemOf = await call.check();
  if (problemOf !== undefined) return { refuse: problemOf };
  if (await keyInUse(intake.store, key, intake.now())) return { consent: asserted };
  const draft = hash('sha256', canonicalJson(call.args));
  const version = intake.consentText.version;
  const grant = await grantForKey(intake.store, secret, key, { draft, version, summary: call.summary }, intake.now());
  if (grant.draft !== draft || grant.version !== version)
    return refused(
      'This idempotency_key was first sent with another draft or consent version; send a new request with a new key.',
      'invalid-request',
    );
  if (grant.declined_at !== undefined) return refused(DECLINED);
  const onPage = (at: string): { consent: ConsentEvidence } => ({
    consent: { ...asserted, method: 'url_page', vouched_by: 'mcp_host', confirmed_at: at },
  });
  if (grant.confirmed_at !== undefined) return onPage(grant.confirmed_at);
  const page = linkUrl(intake.knowledge.urls.home, grant.id, 'confirm', linkToken(secret, grant.id, 'confirm'));
  const message = "Please confirm on the partner's page that you want this proposal request sent, then come back here.";
  if (!eliciting)
    throw new sdk.UrlElicitationRequiredError([{ mode: 'url', message, url: page, elicitationId: grant.id }]);

  const state = ctx.mcpReq.requestState<ConsentState>();
  if (state === undefined) {
    const request = declared.url
      ? sdk.inputRequired.elicitUrl({ message, url: page })
      : sdk.inputRequired.elicit({
          message: `Before this proposal request is sent, please read and agree to this text (version ${version}):\n\n${intake.consentText.text}`,
          requestedSchema: {
            type: 'object',
            properties: {
              agree: { type: 'boolean', title: 'I agree to the text above', description: intake.consentText.text },
            },
            required: ['agree'],
          },
        });
    const requestState = await codec.mint({ draft, version, key, grant: grant.id });
    return { ask: sdk.inputRequired({ inputRequests: { [KEY]: request }, requestState }) };
  }
  if (state.draft !== draft || state.version !== version || state.key !== key || state.grant !== grant.id)
    return refused(
      'The requestState belongs to another draft, consent version or idempotency key; send the tool call again without it.',
      'invalid-request',
    );
  const answer = sdk.inputResponse(ctx.mcpReq.inputResponses, KEY);
  const action = 'action' in answer ? answer.action : undefined;
  if (action === 'accept' && declared.url) {
    const pressed = (await readGrant(intake.store, grant.id))?.grant.confirmed_at;
    if (pressed !== undefined) return onPage(pressed);
    return refused(
      'The person has not pressed "Yes" on the confirmation page yet; call the tool again with the same arguments once they have.',
    );
  }
  if (action === 'accept' && answer.kind === 'elicit' && answer.content?.['agree'] === true)
    return { consent: { ...asserted, method: 'mcp_form_elicitation', vouched_by: 'mcp_host' } };
  if (action === 'cancel') return refused('The person closed the question without answering.');
  const found = await readGrant(intake.store, grant.id);
  if (found !== null) await answerGrant(intake.store, found, 'declined', intake.now().toISOString());
  return refused('The person did not agree to the consent text; ask again only if they want to send the request.');
}
