/**
 * The answer to a submit without consent. The pipeline checks consent before anything else
 * (request-steps.ts), and the developer page shows this very reply as its example problem.
 */
import { problem, type Reply } from './http.ts';

export function consentRequired(): Reply {
  return problem(
    'consent-required',
    'A request is submitted only with the sender\'s consent: set "consent" to true after showing the consent text of the contract.',
    { errors: [{ pointer: '#/consent', detail: 'must be true' }] },
  );
}
