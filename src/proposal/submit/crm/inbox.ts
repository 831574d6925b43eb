/**
 * The default CRM: the Blobs record itself is the system of record, so the write that stores
 * it delivers it; the partner reads it with `npm run inbox`.
 */
import type { CrmAdapter } from './adapter.ts';

export function inboxAdapter(): CrmAdapter {
  return { name: 'inbox', storesRecord: true, deliver: async () => ({ ok: true }) };
}
