/**
 * The stored agent_identity reaches everyone who reads a request as the one line of
 * agent-identity/text.ts: the sales notice, the HubSpot note, the webhook record and the inbox.
 */
import { describe, expect, it } from 'vitest';
import { buildRecord } from '../../src/proposal/submit/record.ts';
import { listText, toCsv } from '../../scripts/inbox/export.ts';
import { noticeMessage } from '../../src/proposal/notify/messages.ts';
import { crmPayload, hubSpotSubmission } from '../../src/proposal/submit/crm.ts';
import type { AgentIdentity } from '../../src/contract/web-bot-auth.ts';
import { CONSENT, PARTNER, submitRequest } from '../helpers/submit-fixtures.ts';

const VERIFIED: AgentIdentity = {
  outcome: 'verified',
  operator: 'https://chatgpt.com',
  key_id: 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U',
  covered: ['"@authority"', '"signature-agent"'],
  body_covered: false,
};
const LINE = 'sent by chatgpt.com agent, verified; body not covered';

const recordWith = (agentIdentity?: AgentIdentity) =>
  buildRecord(submitRequest(), {
    requestId: 'req-agent',
    receivedAt: '2026-11-28T06:00:00.000Z',
    crm: 'inbox',
    consent: CONSENT,
    entryKey: 'keys/req-agent',
    notification: { email: 'owed', chat: 'not_configured' },
    source: { channel: 'http-api', client: 'Mozilla/5.0' },
    agentIdentity,
  });
const notice = (record: ReturnType<typeof recordWith>) => noticeMessage(record, PARTNER).text;

describe('the agent identity of a stored request', () => {
  it('is stored next to the source, and shown as one line to sales, the CRM and the inbox', () => {
    const record = recordWith(VERIFIED);
    expect(record.agent_identity).toEqual(VERIFIED);
    expect(record.source).toEqual({ channel: 'http-api', client: 'Mozilla/5.0' });
    expect(notice(record)).toContain(`Agent identity: ${LINE}`);
    // The webhook CRM gets the fields themselves, named one by one like the rest of its payload.
    expect(crmPayload(record).agent_identity).toEqual(VERIFIED);
    expect(crmPayload(recordWith(undefined))).not.toHaveProperty('agent_identity');
    const message = hubSpotSubmission(crmPayload(record), PARTNER).fields.find((f) => f.name === 'message')!.value;
    expect(message).toContain(`Agent identity: ${LINE}`);
    expect(listText([record])).toContain(`agent: ${LINE}`);
    const csv = toCsv([record]);
    expect(csv.split('\r\n')[0]!.split(',')).toContain('"agent_identity"');
    // The line holds a comma: quoted, as RFC 4180 says.
    expect(csv).toContain(`,"${LINE}",`);
  });

  it('says why a signature was not verified, and that an unsigned request was not signed', () => {
    const invalid = recordWith({
      outcome: 'invalid',
      operator: 'https://agent.example',
      reason: 'the signature does not cover @authority',
    });
    expect(notice(invalid)).toContain(
      'Agent identity: signed as agent.example agent, signature invalid: the signature does not cover @authority',
    );
    expect(listText([recordWith({ outcome: 'absent' })])).toContain('agent: not signed');
  });

  it('reads as not recorded on requests stored before it was', () => {
    const old = recordWith(undefined);
    expect(old.agent_identity).toBeUndefined();
    expect(notice(old)).toContain('Agent identity: not recorded');
    expect(listText([old])).not.toContain('agent:');
  });
});
