/**
 * Text of the confirmation email. Pure: the mailer sends it, tests read it. Only the
 * recipient's address and display name come from the sender, and both pass singleLine.
 */
import type { Partner } from './partner.ts';
import { overviewText } from './overview.ts';
import type { ProposalRecord } from './record.ts';
import { singleLine } from './single-line.ts';

/** Fixed text plus the request id; no sender text, so the subject cannot carry an injection. */
export function confirmationSubject(record: ProposalRecord, partner: Partner): string {
  return singleLine(`${partner.name}: your proposal request ${record.request_id} is received`);
}

export function confirmationText(record: ProposalRecord, partner: Partner): string {
  const name = singleLine(record.contact.name);
  return [
    `Hello ${name},`,
    '',
    `${partner.name}, ${partner.describedAs}, has received your proposal request.`,
    `It is stored with ${partner.name} under this reference:`,
    '',
    `Request id: ${record.request_id}`,
    `Received at: ${record.received_at}`,
    '',
    'What you sent',
    '-------------',
    overviewText(record),
    '',
    'What happens next',
    '-----------------',
    `The ${partner.name} team reviews your request and replies from ${partner.email} with questions`,
    'or a suggestion for a first conversation. Any guidance about cloud-provider programs is',
    'non-binding: the cloud provider decides eligibility and approval.',
    '',
    'Please do not reply with credentials, passwords, access keys, private architecture diagrams,',
    'confidential financial information, regulated data or other secrets.',
    '',
    `You receive this email because you submitted a proposal request at ${partner.proposalUrl}`,
    'and agreed to be contacted about it.',
    '',
  ].join('\n');
}
