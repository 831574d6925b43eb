/**
 * Stands in for a CRM whose settings are missing or invalid. Requests stay stored as pending
 * (nothing is lost) and every attempt logs which variable to fix, never any request data.
 */
import { logEvent } from '../log.ts';
import type { CrmAdapter } from './adapter.ts';
import type { CrmName } from '../record.ts';

export function misconfiguredAdapter(name: CrmName, variable: string, reason: string): CrmAdapter {
  return {
    name,
    deliver: async () => {
      logEvent('crm_misconfigured', { crm: name, variable, reason });
      return { ok: false, kind: 'misconfigured' };
    },
  };
}
