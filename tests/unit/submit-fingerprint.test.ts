/** What counts as "the same payload" for a key, and what the stored record keeps. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, requestFingerprint } from '../../src/proposal/submit/key.ts';
import { buildRecord, type RecordMeta } from '../../src/proposal/submit/record.ts';
import { CONSENT, submitRequest } from '../helpers/submit-fixtures.ts';

describe('requestFingerprint', () => {
  it('ignores key order, the honeypot and the form start time', () => {
    const request = submitRequest();
    const reordered = Object.fromEntries(Object.entries(request).reverse()) as typeof request;
    expect(requestFingerprint(reordered)).toBe(requestFingerprint(request));
    expect(requestFingerprint(submitRequest({ website: 'spam', form_started_at: 5 }))).toBe(
      requestFingerprint(request),
    );
  });

  it('changes with any field the sender chose', () => {
    expect(requestFingerprint(submitRequest({ timeline: 'Next year' }))).not.toBe(requestFingerprint(submitRequest()));
    expect(requestFingerprint(submitRequest({ consent_version: 'v2' }))).not.toBe(requestFingerprint(submitRequest()));
  });

  it('gives equal text for equal values whatever the key order', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (value) => {
        const reversed = Object.fromEntries(Object.entries(value).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(value));
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

/** What a submit knows besides the request: here only what the assertions read. */
const META: RecordMeta = {
  requestId: 'r',
  receivedAt: '2026-11-20T10:00:00.000Z',
  crm: 'inbox',
  consent: CONSENT,
  entryKey: 'keys/k',
  notification: { email: 'not_configured', chat: 'not_configured' },
};

describe('buildRecord', () => {
  it('keeps the consent in force and notes a different version the sender saw', () => {
    const meta = META;
    expect(buildRecord(submitRequest(), meta).consent).toMatchObject({
      given: true,
      text: CONSENT.text,
      version: CONSENT.version,
      at: meta.receivedAt,
    });
    expect(buildRecord(submitRequest({ consent_version: '2025-01-01' }), meta).consent.sender_version).toBe(
      '2025-01-01',
    );
    expect(buildRecord(submitRequest({ consent_version: CONSENT.version }), meta).consent).not.toHaveProperty(
      'sender_version',
    );
  });

  it('leaves out the honeypot, the form timing and absent optional fields', () => {
    const { role: _role, question: _question, cloud_context: _cloud, ...rest } = submitRequest({ website: 'x' });
    const record = buildRecord(rest, { ...META, receivedAt: 'now' });
    const text = JSON.stringify(record);
    expect(text).not.toMatch(/website|form_started_at|"role"|"question"|cloud_context/);
  });
});
