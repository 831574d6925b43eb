/** The one line people read about a request's agent identity: the sales notice, the CRM, the inbox. */
import type { AgentIdentity } from './model.ts';

/** `chatgpt.com` of `https://chatgpt.com`: the name an operator is known by. */
function operatorName(operator: string | undefined): string {
  if (operator === undefined) return 'an unnamed operator';
  return URL.parse(operator)?.host ?? 'an unnamed operator';
}

/**
 * `sent by chatgpt.com agent, verified; body not covered`, `signed as chatgpt.com agent, not
 * verified: the key directory did not answer in time`, `not signed`. Every part is a host name or
 * a fixed phrase of this module, so the line is safe in mail, chat and CSV alike.
 */
export function agentIdentityText(identity: AgentIdentity | undefined): string {
  if (identity === undefined) return 'not recorded';
  const name = operatorName(identity.operator);
  switch (identity.outcome) {
    case 'absent':
      return 'not signed';
    case 'verified':
      return `sent by ${name} agent, verified; body ${identity.body_covered === true ? 'covered' : 'not covered'}`;
    case 'unverified':
      return `signed as ${name} agent, not verified: ${identity.reason ?? 'the key directory could not be read'}`;
    case 'invalid':
      return `signed as ${name} agent, signature invalid: ${identity.reason ?? 'not valid'}`;
  }
}
