/**
 * Consent asked of the person over MCP, below the door: on a 2026-07-28 connection whose client
 * declares form elicitation, submit_proposal_request first shows the consent text word for word and
 * submits only once the person accepted it (mcp_form_elicitation, vouched for by the host). The
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
} from '@modelcontextprotocol/server';
import { problem, type Reply } from '../../contract/http.ts';
import type { Knowledge } from '../../contract/knowledge.ts';
import type { ConsentEvidence } from '../../contract/consent.ts';
import { canonicalJson } from '../submit/fingerprint.ts';
import { hash } from 'node:crypto';

/** The revision whose stateless round trips carry an elicitation. */
export const ELICITING_REVISION = '2026-07-28';
const KEY = 'consent';

/** What the round trip's signed state holds: never the draft, only its digest. */
interface ConsentState {
  draft: string;
  version: string;
  key: string;
}

/** The SDK's parts this takes, from the bundle the door loaded. */
export interface ElicitingSdk {
  inputRequired: typeof inputRequired;
  inputResponse: typeof inputResponse;
  createRequestStateCodec: typeof createRequestStateCodec;
  CLIENT_CAPABILITIES_META_KEY: string;
}

/** The SDK's codec as functions, ready to hand to the server's requestState.verify. */
export interface Codec {
  mint: (state: ConsentState) => Promise<string>;
  verify: (wire: string, ctx: ServerContext) => Promise<ConsentState>;
}

/** The codec when a secret is configured; without it, no state can be trusted and nobody is asked. */
export function consentCodec(sdk: ElicitingSdk, secret: string | undefined): Codec | undefined {
  if (secret === undefined) return undefined;
  const codec = sdk.createRequestStateCodec<ConsentState>({ key: secret, ttlSeconds: 900 });
  return { mint: (state) => codec.mint(state), verify: (wire, ctx) => codec.verify(wire, ctx) };
}

const draftDigest = (args: Record<string, unknown>) => hash('sha256', canonicalJson(args));

/** Does the client of this request declare form elicitation (2026-07-28: in the request's envelope)? */
function formElicitation(sdk: ElicitingSdk, ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const caps = envelope?.[sdk.CLIENT_CAPABILITIES_META_KEY] as { elicitation?: Record<string, unknown> } | undefined;
  const elicitation = caps?.elicitation;
  // An empty `elicitation: {}` means form mode (the 2025-06-18 meaning, kept).
  return elicitation !== undefined && (Object.keys(elicitation).length === 0 || elicitation['form'] !== undefined);
}

/**
 * What a submit does about consent: `ask` (the input-required result to return), `refuse` (a problem:
 * declined, or a state that does not fit this draft), or the `consent` to submit with.
 */
export async function mcpConsent(
  sdk: ElicitingSdk,
  codec: Codec | undefined,
  ctx: ServerContext,
  call: { args: Record<string, unknown>; keyName: string; asserted: ConsentEvidence; k: Pick<Knowledge, 'consent'> },
): Promise<{ ask: CallToolResult } | { refuse: Reply } | { consent: ConsentEvidence }> {
  const { [call.keyName]: key, ...args } = call.args;
  const { asserted } = call;
  const { consent } = call.k;
  if (codec === undefined || asserted.mcp?.protocol_version !== ELICITING_REVISION || !formElicitation(sdk, ctx))
    return { consent: asserted };
  const state = ctx.mcpReq.requestState<ConsentState>();
  const draft = draftDigest(args);
  if (state === undefined) {
    if (typeof key !== 'string') return { consent: asserted };
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
