import { describe, expect, it } from 'vitest';
import {
  claimedChannel,
  httpChannel,
  implementationName,
  sourceText,
  userAgentProduct,
} from '../../src/contract/source.ts';
import { buildRecord } from '../../src/proposal/submit/record.ts';
import { listText, toCsv } from '../../scripts/inbox/export.ts';
import { noticeMessage } from '../../src/proposal/notify/messages.ts';
import { hubSpotSubmission } from '../../src/proposal/submit/crm.ts';
import { CONSENT, PARTNER, submitRequest } from '../helpers/submit-fixtures.ts';

/** The cells of one exported CSV line: every field is quoted, a quote inside doubled (RFC 4180). */
const csvCells = (line: string) =>
  line
    .slice(1, -1)
    .split('","')
    .map((cell) => cell.replaceAll('""', '"'));

describe('where a request came from', () => {
  it('names the client by the first product of its User-Agent, one printable line, bounded', () => {
    expect(userAgentProduct('curl/8.5.0')).toBe('curl/8.5.0');
    expect(userAgentProduct('Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0')).toBe('Mozilla/5.0');
    expect(userAgentProduct('  agent/1\r\nX-Injected: 1')).toBe('agent/1');
    expect(userAgentProduct('')).toBeUndefined();
    expect(userAgentProduct(null)).toBeUndefined();
    expect(userAgentProduct('x'.repeat(500))!.length).toBe(64);
    // Nothing a chat service or mail client would act on survives: no <, >, @, [, ], &.
    expect(userAgentProduct('<!channel>')).toBe('channel');
    expect(userAgentProduct('[x](https://evil.example)')).toBe('x');
    expect(implementationName({ name: '<https://evil.example|Open> @here', version: '1' })).toBe(
      'https://evil.example Open here/1',
    );
  });

  it('names an MCP client by its clientInfo, and refuses what is not an Implementation', () => {
    expect(implementationName({ name: 'claude-ai', version: '0.1.0' })).toBe('claude-ai/0.1.0');
    expect(implementationName({ name: 'bare' })).toBe('bare');
    expect(implementationName({ name: 'a\u0007b\nc', version: '1' })).toBe('a b c/1');
    expect(implementationName({ version: '1' })).toBeUndefined();
    expect(implementationName('claude')).toBeUndefined();
  });

  it('the channel is what the server saw (form or HTTP API); the page a header names is recorded as a claim', () => {
    expect(httpChannel(true)).toBe('form');
    expect(httpChannel(false)).toBe('http-api');
    expect(claimedChannel('workspace')).toBe('workspace');
    expect(claimedChannel(' WebMCP ')).toBe('webmcp');
    expect(claimedChannel('mcp')).toBeUndefined();
    expect(claimedChannel(null)).toBeUndefined();
    expect(sourceText({ channel: 'http-api', client: 'Mozilla/5.0', claimed_channel: 'workspace' })).toBe(
      'HTTP API (client: Mozilla/5.0; says: proposal workspace)',
    );
    const record = buildRecord(submitRequest(), {
      requestId: 'req-2',
      receivedAt: '2026-11-24T10:00:00.000Z',
      crm: 'inbox',
      consent: CONSENT,
      entryKey: 'keys/req',
      notification: { email: 'owed', chat: 'not_configured' },
      source: { channel: 'http-api', client: 'Mozilla/5.0', claimed_channel: 'workspace' },
    });
    expect(listText([record])).toMatch(/via http-api, client Mozilla\/5\.0, says workspace;/);
    const [header, row] = toCsv([record])
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .map(csvCells);
    expect(row![header!.indexOf('claimed_channel')]).toBe('workspace');
  });

  it('the record, the sales notice, the CRM note and the inbox all show it', () => {
    const record = buildRecord(submitRequest(), {
      requestId: 'req-1',
      receivedAt: '2026-11-24T10:00:00.000Z',
      crm: 'inbox',
      consent: CONSENT,
      entryKey: 'keys/req',
      notification: { email: 'owed', chat: 'not_configured' },
      source: { channel: 'mcp', client: 'claude-ai/0.1.0' },
    });
    expect(record.source).toEqual({ channel: 'mcp', client: 'claude-ai/0.1.0' });
    expect(sourceText(record.source)).toBe('MCP server (client: claude-ai/0.1.0)');
    // Sales read where it came from in their words.
    expect(noticeMessage(record, PARTNER).text).toContain(
      'Came from: an AI assistant, through the MCP server (it calls itself claude-ai/0.1.0)',
    );
    const message = hubSpotSubmission(record, PARTNER).fields.find((f) => f.name === 'message')!.value;
    expect(message).toContain('Came through: MCP server (client: claude-ai/0.1.0)');
    expect(listText([record])).toMatch(/via mcp, client claude-ai\/0\.1\.0;/);
    const [columns, row] = toCsv([record])
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .map(csvCells);
    expect(row![columns!.indexOf('channel')]).toBe('mcp');
    expect(row![columns!.indexOf('client')]).toBe('claude-ai/0.1.0');
  });

  it('a request stored before sources were recorded reads as not recorded', () => {
    const record = buildRecord(submitRequest(), {
      requestId: 'req-0',
      receivedAt: '2026-11-24T10:00:00.000Z',
      crm: 'inbox',
      consent: CONSENT,
      entryKey: 'keys/req',
      notification: { email: 'owed', chat: 'not_configured' },
    });
    expect(record.source).toBeUndefined();
    expect(noticeMessage(record, PARTNER).text).toContain('Came from: not recorded');
    expect(listText([record])).toMatch(/via -; /);
  });
});
