import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { assertedConsent, consentDigest, consentText, mcpCaller } from '../../src/contract/consent.ts';
import { buildRecord, type ProposalRecord } from '../../src/proposal/submit/record.ts';
import { crmPayload, hubSpotSubmission } from '../../src/proposal/submit/crm.ts';
import { noticeMessage } from '../../src/proposal/notify/messages.ts';
import { listText, toCsv } from '../../scripts/inbox/export.ts';
import { CONSENT, PARTNER, submitRequest } from '../helpers/submit-fixtures.ts';

/** The CSV's lines, its byte-order mark dropped, each as cells. */
const csvRows = (csv: string) =>
  csv
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .map(csvCells);
const csvCells = (line: string) =>
  line
    .slice(1, -1)
    .split('","')
    .map((cell) => cell.replaceAll('""', '"'));

const at = '2026-11-24T10:00:00.000Z';
const recordVia = (
  source: Parameters<typeof buildRecord>[1]['source'],
  evidence?: Parameters<typeof buildRecord>[1]['evidence'],
) =>
  buildRecord(submitRequest(), {
    requestId: 'req-c',
    receivedAt: at,
    crm: 'webhook',
    consent: CONSENT,
    entryKey: 'keys/req-c',
    notification: { email: 'owed', chat: 'not_configured' },
    source,
    ...(evidence && { evidence }),
  });

describe('the consent record of a stored request', () => {
  it('digests the exact consent text once: sha-256 of its UTF-8 bytes', () => {
    const expected = createHash('sha256').update(CONSENT.text, 'utf8').digest('hex');
    expect(consentDigest(CONSENT.text)).toBe(`sha-256:${expected}`);
    expect(consentDigest(`${CONSENT.text} `)).not.toBe(consentDigest(CONSENT.text));
  });

  it("maps today's doors: a tick on the partner's page is the sender's word, the API, WebMCP and MCP the agent's", () => {
    expect(assertedConsent('form')).toEqual({ method: 'site_form', vouched_by: 'sender' });
    expect(assertedConsent('http-api', 'workspace')).toEqual({ method: 'site_form', vouched_by: 'sender' });
    expect(assertedConsent('http-api', 'webmcp')).toEqual({ method: 'agent_asserted', vouched_by: 'agent' });
    expect(assertedConsent('http-api')).toEqual({ method: 'agent_asserted', vouched_by: 'agent' });
    expect(assertedConsent('mcp')).toEqual({ method: 'agent_asserted', vouched_by: 'agent' });
  });

  it("records an MCP call's revision from its MCP-Protocol-Version header and the client's declared name", () => {
    const request = new Request('http://127.0.0.1/mcp', { headers: { 'mcp-protocol-version': '2025-06-18' } });
    expect(mcpCaller('host/2.1', request)).toEqual({
      source: { channel: 'mcp', client: 'host/2.1' },
      consent: {
        method: 'agent_asserted',
        vouched_by: 'agent',
        mcp: { protocol_version: '2025-06-18', client: 'host/2.1' },
      },
    });
    const odd = new Request('http://127.0.0.1/mcp', { headers: { 'mcp-protocol-version': '<b>' } });
    expect(mcpCaller(undefined, odd).consent.mcp).toEqual({});
  });

  it('stores given, version, digest, method, voucher, time, channel and the MCP revision and client', () => {
    const record = recordVia(
      { channel: 'mcp', client: 'host/1.0' },
      {
        method: 'mcp_form_elicitation',
        vouched_by: 'mcp_host',
        mcp: { protocol_version: '2026-07-28', client: 'host/1.0' },
      },
    );
    expect(record.consent).toEqual({
      given: true,
      text: CONSENT.text,
      version: CONSENT.version,
      digest: consentDigest(CONSENT.text),
      at,
      method: 'mcp_form_elicitation',
      vouched_by: 'mcp_host',
      channel: 'mcp',
      mcp: { protocol_version: '2026-07-28', client: 'host/1.0' },
    });
  });

  it('sends each field to the CRM, and shows it in the HubSpot note, the sales notice and the inbox list and CSV', () => {
    const record = recordVia({ channel: 'form' });
    expect(crmPayload(record).consent).toEqual({
      given: true,
      text: CONSENT.text,
      version: CONSENT.version,
      at,
      digest: consentDigest(CONSENT.text),
      method: 'site_form',
      vouched_by: 'sender',
      channel: 'form',
    });
    const hubspot = hubSpotSubmission(crmPayload(record), PARTNER);
    expect(hubspot.legalConsentOptions.consent.text).toBe(CONSENT.text);
    const note = hubspot.fields.find((f) => f.name === 'message')!.value;
    expect(note).toContain(`Consent: site_form, vouched by sender, given ${at}; version ${CONSENT.version}`);
    // Sales read it in their words: how it was given, and whether the person confirmed it.
    expect(noticeMessage(record, PARTNER).text).toContain(
      `Consent: ticked the consent box on our proposal page; not yet confirmed by the person (consent text version ${CONSENT.version})`,
    );
    expect(listText([record])).toContain('consent: site_form, vouched by sender');
    // The CSV holds the consent as one cell (how, who vouches, when, version, the digest's start) beside the channel.
    const [header, row] = csvRows(toCsv([record]));
    const cell = (name: string) => row![header!.indexOf(name)];
    expect(cell('consent')).toBe(
      `site_form, vouched by sender, given ${at}; version ${CONSENT.version} (${consentDigest(CONSENT.text).slice(0, 20)})`,
    );
    expect(cell('channel')).toBe('form');
  });

  it('a request stored before the record had these fields still reads, each shown as not recorded', () => {
    const { method: _m, vouched_by: _v, digest: _d, channel: _c, ...old } = recordVia(undefined).consent;
    const record: ProposalRecord = { ...recordVia(undefined), consent: old };
    expect(consentText(record.consent)).toBe(
      `how: not recorded, given ${at}; version ${CONSENT.version} (digest not recorded)`,
    );
    expect(noticeMessage(record, PARTNER).text).toContain(
      `Consent: given; not yet confirmed by the person (consent text version ${CONSENT.version})`,
    );
    expect(crmPayload(record).consent).toEqual({ given: true, text: CONSENT.text, version: CONSENT.version, at });
    const [header, row] = csvRows(toCsv([record]));
    expect(row![header!.indexOf('consent')]).toMatch(/^how: not recorded, /);
    expect(row![header!.indexOf('consent')]).toMatch(/\(digest not recorded\)$/);
  });
});
