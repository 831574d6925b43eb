/** The HTTP door's words for what the actions' texts point at: an action body at the endpoint, the key's header. */
import { DOCUMENT_PATHS } from '../../contract/paths.ts';
import type { DoorWords } from '../actions/door-words.ts';

/** `api`: the endpoint's absolute URL (knowledge's urls.proposal_api). */
export function httpWords(api: string): DoorWords {
  return {
    action: (action) => `{"action":"${action}"} at ${api}`,
    key: 'the Idempotency-Key header',
    schemas: `GET ${DOCUMENT_PATHS.proposalApi}`,
  };
}
