/**
 * Text of the confirmation email. Pure: the mailer sends it, tests read it. It goes to an address
 * nobody has verified, so it carries nothing the sender wrote: no name, no free text, no URL
 * from the request, in the subject, the body or a header. What it says comes from the partner
 * (request id, time, next steps, contact); the two choices a sender picks from the contract's
 * lists are named by the site's own labels, and an id without a label is left out.
 */
import { FIELD_LABELS } from '../../contract/fields.ts';
import type { Partner } from './partner.ts';
import type { ProposalRecord } from './record.ts';
import { singleLine } from './single-line.ts';

/** Fixed text plus the request id; no sender text, so the subject cannot carry an injection. */
export function confirmationSubject(record: ProposalRecord, partner: Partner): string {
  return singleLine(`${partner.name}: your proposal request ${record.request_id} is received`);
}

/** The choices picked from the site's lists, as [label, the site's name for the choice]. */
export function confirmationChoices(record: ProposalRecord, partner: Partner): Array<[string, string]> {
  const labels = partner.choiceLabels ?? {};
  const picked: Array<[string, string | undefined]> = [
    [FIELD_LABELS.engagement_model, record.intake.engagement_model],
    [FIELD_LABELS.primary_need, record.guidance.primary_need],
  ];
  return picked.flatMap(([label, id]) => {
    const name = id === undefined ? undefined : labels[id];
    return name === undefined ? [] : [[label, name] as [string, string]];
  });
}

export function confirmationText(record: ProposalRecord, partner: Partner): string {
  const choices = confirmationChoices(record, partner);
  return [
    'Hello,',
    '',
    `${partner.name}, ${partner.describedAs}, has received a proposal request sent with this email address.`,
    `It is stored with ${partner.name} under this reference:`,
    '',
    `Request id: ${record.request_id}`,
    `Received at: ${record.received_at}`,
    ...(choices.length === 0 ? [] : ['', 'You chose', '---------', ...choices.map(([l, v]) => `${l}: ${v}`)]),
    '',
    'What happens next',
    '-----------------',
    `The ${partner.name} team reviews the request and replies from ${partner.email} with questions`,
    'or a suggestion for a first conversation. Any guidance about cloud-provider programs is',
    'non-binding: the cloud provider decides eligibility and approval.',
    '',
    'Please do not reply with credentials, passwords, access keys, private architecture diagrams,',
    'confidential financial information, regulated data or other secrets.',
    '',
    'Not you?',
    '--------',
    `If you did not send this request, write to ${partner.email} with the request id and`,
    'everything stored for it is deleted. This email repeats nothing of what was sent.',
    ...(partner.privacyUrl === undefined ? [] : [`How ${partner.name} handles the data: ${partner.privacyUrl}`]),
    '',
    `This email was sent because a proposal request was submitted at ${partner.proposalUrl}`,
    'with this address and agreement to be contacted about it.',
    '',
  ].join('\n');
}
