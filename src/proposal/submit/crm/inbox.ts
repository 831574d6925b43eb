/**
 * The default CRM: the Blobs record itself is the system of record. It was written before
 * delivery, so accepting is immediate; the partner reads it with `npm run inbox`.
 */
import type { CrmAdapter } from './adapter.ts';

export function inboxAdapter(): CrmAdapter {
  return { name: 'inbox', deliver: async () => ({ ok: true }) };
}
