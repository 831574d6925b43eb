/**
 * Consent asked of the person over MCP, below the door: on a 2026-07-28 connection whose client
 * declares URL elicitation, submit_proposal_request first sends the person to the partner's own
 * confirmation page and submits once they confirmed there (url_page, first_party); with form
 * elicitation only, it shows the consent text word for word and submits only once the person
 * accepted it (mcp_form_elicitation, vouched for by the host). The
 * round trip's requestState is signed with CONSENT_SECRET (the SDK's codec), bound to the draft's
 * digest, the consent version and the idempotency key: a changed draft or a replayed state for
 * another key is refused, and the key keeps the submit single. Any other client submits as before,
 * agent_asserted, and the person can still confirm through the email's link.
 */
import type {
  CallToolResult,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  ServerContext,
  UrlElicitationRequiredError,
} from '@modelcontextprotocol/server';
import { problem, type Reply } from '../../contract/http.ts';
import type { Knowledge } from '../../contract/knowledge.ts';
import type { ConsentEvidence } from '../../contract/consent.ts';
import { canonicalJson } from '../submit/fingerprint.ts';
import { hash } from 'node:crypto';
import { ProposalsStore } from '../store/blobs.ts';
import { linkToken, linkUrl } from '../submit/consent-links.ts';
import { createGrant, readGrant } from './grant.ts';
import { legacyUrlConsent } from './legacy-url.ts';
import { ELICITING_REVISION, type DeclaredSession } from './mcp-session.ts';

const KEY = 'consent';

/** What the round trip's signed state holds: never the draft, only its digest. */
interface ConsentState {
  draft: string;
  version: string;
  key: string;
  /** URL mode: the grant the person confirms on the partner's page (grant.ts). */
  grant?: string;
}

/** The SDK's parts this takes, from the bundle the door loaded. */
export interface ElicitingSdk {
  inputRequired: typeof inputRequired;
  inputResponse: typeof inputResponse;
  createRequestStateCodec: typeof createRequestStateCodec;
  CLIENT_CAPABILITIES_META_KEY: string;
  UrlElicitationRequiredError: typeof UrlElicitationRequiredError;
}

/** The SDK's codec as functions, ready to hand to the server's requestState.verify. */
export interface Codec {
  mint: (state: ConsentState) => Promise<string>;
  verify: (wire: string, ctx: ServerContext) => Promise<ConsentState>;
  /** CONSENT_SECRET, which also keys the grant's link. */
  secret: string;
}

/** The codec when a secret is configured; without it, no state can be trusted and nobody is asked. */
export function consentCodec(sdk: ElicitingSdk, secret: string | undefined): Codec | undefined {
  if (secret === undefined) return undefined;
  const codec = sdk.createRequestStateCodec<ConsentState>({ key: secret, ttlSeconds: 900 });
  return { mint: (state) => codec.mint(state), verify: (wire, ctx) => codec.verify(wire, ctx), secret };
}

const draftDigest = (args: Record<string, unknown>) => hash('sha256', canonicalJson(args));

/** The elicitation modes the client of this request declares (2026-07-28: in the request's envelope). */
function elicitationModes(sdk: ElicitingSdk, ctx: ServerContext): { form: boolean; url: boolean } {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const caps = envelope?.[sdk.CLIENT_CAPABILITIES_META_KEY] as { elicitation?: Record<string, unknown> } | undefined;
  const elicitation = caps?.elicitation;
  if (elicitation === undefined) return { form: false, url: false };
  // An empty `elicitation: {}` means form mode (the 2025-06-18 meaning, kept).
  return { form: Object.keys(elicitation).length === 0 || 'form' in elicitation, url: 'url' in elicitation };
}

let grants: ProposalsStore | undefined;
/** The site's store, opened on the first URL-mode ask (the invocation's context names it). */
const grantStore = () => (grants ??= new ProposalsStore());

/** Sends the person to the partner's page to confirm this draft (URL mode), under a fresh state. */
async function askOnPage(sdk: ElicitingSdk, codec: Codec, state: ConsentState & { grant: string }, siteUrl: string) {
  const url = linkUrl(siteUrl, state.grant, 'confirm', linkToken(codec.secret, state.grant, 'confirm'));
  const ask = sdk.inputRequired({
    inputRequests: {
      [KEY]: sdk.inputRequired.elicitUrl({
        message: "Please confirm on the partner's page that you want this proposal request sent, then come back here.",
        url,
      }),
    },
    requestState: await codec.mint(state),
  });
  return { ask: ask as unknown as CallToolResult };
}

/**
 * What a submit does about consent: `ask` (the input-required result to return), `refuse` (a problem:
 * declined, or a state that does not fit this draft), or the `consent` to submit with.
 */
export async function mcpConsent(
  sdk: ElicitingSdk,
  codec: Codec | undefined,
  ctx: ServerContext,
  call: {
    args: Record<string, unknown>;
    keyName: string;
    asserted: ConsentEvidence;
    /** What a 2025-era client declared at initialize (./mcp-session.ts), when its session says. */
    session?: DeclaredSession | undefined;
    k: Pick<Knowledge, 'consent'> & { urls: Pick<Knowledge['urls'], 'home'> };
  },
): Promise<{ ask: CallToolResult } | { refuse: Reply } | { consent: ConsentEvidence }> {
  const { [call.keyName]: key, ...args } = call.args;
  const { asserted } = call;
  const { consent } = call.k;
  const modes = elicitationModes(sdk, ctx);
  if (codec !== undefined && call.session?.url === true && typeof key === 'string')
    return legacyUrlConsent(sdk, codec.secret, grantStore(), {
      draftOf: { draft: draftDigest(args), version: consent.version, key },
      asserted,
      siteUrl: call.k.urls.home,
    });
  if (codec === undefined || asserted.mcp?.protocol_version !== ELICITING_REVISION || !(modes.form || modes.url))
    return { consent: asserted };
  const state = ctx.mcpReq.requestState<ConsentState>();
  const draft = draftDigest(args);
  if (state === undefined) {
    if (typeof key !== 'string') return { consent: asserted };
    if (modes.url) {
      const draftOf = { draft, version: consent.version, key };
      const grant = await createGrant(grantStore(), codec.secret, draftOf, new Date());
      return askOnPage(sdk, codec, { ...draftOf, grant: grant.id }, call.k.urls.home);
    }
    const requestState = await codec.mint({ draft, version: consent.version, key });
    const ask = sdk.inputRequired({
      inputRequests: {
        [KEY]: sdk.inputRequired.elicit({
          message: `Before this proposal request is sent, please read and agree to this text (version ${consent.version}):\n\n${consent.text}`,
          requestedSchema: {
            type: 'object',
            properties: { agree: { type: 'boolean', title: 'I agree to the text above', description: consent.text } },
            required: ['agree'],
          },
        }),
      },
      requestState,
    });
    return { ask: ask as unknown as CallToolResult };
  }
  if (state.draft !== draft || state.version !== consent.version || state.key !== key) {
    return {
      refuse: problem(
        'invalid-request',
        'The requestState belongs to another draft, consent version or idempotency key; send the tool call again without it. Nothing was submitted.',
      ),
    };
  }
  if (state.grant !== undefined) {
    const found = await readGrant(grantStore(), state.grant);
    const grant = found?.grant;
    if (grant?.confirmed_at !== undefined && grant.draft === draft && grant.key === key)
      return { consent: { ...asserted, method: 'url_page', vouched_by: 'first_party' } };
    // Not confirmed yet (the person closed the page, or the client came back early): the same page again.
    if (grant !== undefined) return askOnPage(sdk, codec, { ...state, grant: grant.id }, call.k.urls.home);
  }
  const answer = sdk.inputResponse(ctx.mcpReq.inputResponses, KEY);
  if (answer.kind === 'elicit' && answer.action === 'accept' && answer.content?.['agree'] === true)
    return { consent: { ...asserted, method: 'mcp_form_elicitation', vouched_by: 'mcp_host' } };
  return {
    refuse: problem(
      'consent-required',
      'The person did not agree to the consent text, so nothing was submitted. Ask them again only if they want to send the request.',
    ),
  };
}
