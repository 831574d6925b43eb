/** The hash that identifies a submission: the same payload, the same fingerprint. */
import { hash } from 'node:crypto';
import type { SubmitRequest } from '../../contract/requests.ts';

/** JSON with object keys sorted at every depth, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** "The same payload" for a key: all the sender chose to send, not the session (honeypot, form start time). */
export function requestFingerprint(request: SubmitRequest): string {
  const { website: _honeypot, form_started_at: _formTiming, ...meaningful } = request;
  return hash('sha256', canonicalJson(meaningful));
}
