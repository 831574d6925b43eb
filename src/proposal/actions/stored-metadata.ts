/** The parts of a request beside its body that are stored and sent on, held to the body's guard. */
import { problem, type Reply } from '../../contract/http.ts';
import { findSensitiveData } from '../guard/index.ts';
import type { RequestSource } from '../../contract/source.ts';

/**
 * What the request says beside its body is stored and sent to the CRM too: the idempotency key (the
 * webhook's `webhook-id`) and the client's name. The same guard as the body's holds them: a key that
 * looks like a secret is refused, a client name that does is dropped (it is only a label).
 */
export async function guardedMetadata(
  key: string,
  source: RequestSource,
): Promise<{ keyRefused?: Reply; source: RequestSource }> {
  const findings = await findSensitiveData({ idempotency_key: key, client: source.client ?? '' });
  const at = (field: string) => findings.some((f) => f.pointer === `#/${field}`);
  const kept = at('client') ? { ...source, client: undefined } : source;
  if (!at('idempotency_key')) return { source: kept };
  return {
    source: kept,
    keyRefused: problem(
      'sensitive-data',
      'The idempotency key looks like a credential or secret; it is stored and sent on, so send a random value (a UUID) instead. Nothing was stored.',
    ),
  };
}
