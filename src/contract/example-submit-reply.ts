/** The example reply of a received submit, published in the contract. */
import type { Knowledge } from './knowledge.ts';
import { receivedReplyBody } from './submit-replies.ts';

export function exampleSubmitReply(k: Knowledge) {
  return receivedReplyBody({
    requestId: '5b0e4f7e-8a5c-4d1e-9f2a-3c6d7e8f9a0b',
    receivedAt: '2026-11-20T09:30:00.000Z',
    crm: 'inbox',
    confirmationEmail: 'sent',
    partner: { name: k.partner.name, describedAs: k.partner.described_as },
  });
}
