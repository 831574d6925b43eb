/** The summarize action: a reviewable overview of a proposal request. Nothing is stored or sent. */
import {
  CONTACT_FIELDS,
  FIELD_LABELS,
  GUIDANCE_FIELDS,
  INTAKE_FIELDS,
  OPTIONAL_CONTACT_FIELDS,
  REQUIRED_INTAKE_FIELDS,
} from '../../contract/fields.ts';
import type { SummarizeRequest } from '../../contract/requests.ts';
import type { Knowledge } from '../../contract/knowledge.ts';
import type { DoorWords } from './pipeline.ts';

type Labelled = keyof typeof FIELD_LABELS;

function pick(req: SummarizeRequest, names: readonly Labelled[]) {
  const out: Partial<Record<Labelled, string>> = {};
  for (const name of names) {
    const value = req[name as keyof SummarizeRequest];
    if (typeof value === 'string' && value.trim() !== '') out[name] = value.trim();
  }
  return out;
}

/** One line of markdown per field; values are quoted so their own markdown cannot restructure the page. */
function markdownSection(title: string, fields: Partial<Record<Labelled, string>>): string {
  const lines = Object.entries(fields).map(
    ([name, value]) =>
      `- **${FIELD_LABELS[name as Labelled]}:** ${value.replace(/\s*\n\s*/g, ' ').replace(/([\\`*_[\]<>])/g, '\\$1')}`,
  );
  return lines.length > 0 ? `## ${title}\n\n${lines.join('\n')}\n` : '';
}

export function summarize(k: Knowledge, req: SummarizeRequest, door: DoorWords) {
  const intake = pick(req, INTAKE_FIELDS);
  const guidance = pick(req, GUIDANCE_FIELDS);
  const contact = pick(req, [...CONTACT_FIELDS, ...OPTIONAL_CONTACT_FIELDS]);
  const model = k.engagement_models.find((m) => m.id === req.engagement_model);
  if (model) intake.engagement_model = `${model.name} (${model.id})`;

  const missingIntake = REQUIRED_INTAKE_FIELDS.filter((f) => !intake[f]);
  const missingContact = CONTACT_FIELDS.filter((f) => !contact[f]);
  const warnings: string[] = [];
  if (!intake.cloud_context)
    warnings.push(
      'Name your cloud account team, startup program or funding context if you know them, or write "none".',
    );
  if (missingContact.length > 0)
    warnings.push(`To send the request we need: ${missingContact.map((f) => FIELD_LABELS[f]).join(', ')}.`);
  warnings.push(
    'Check that nothing above is a credential, a private diagram, confidential financial information, regulated data or a secret.',
  );

  const markdown = [
    '# Proposal request overview',
    `For ${k.partner.name}, ${k.partner.described_as}. Not submitted.`,
    markdownSection('Intake', intake),
    markdownSection('Context', guidance),
    markdownSection('Contact', contact),
    missingIntake.length > 0
      ? `## Still missing\n\n${missingIntake.map((f) => `- ${FIELD_LABELS[f]}`).join('\n')}\n`
      : '',
  ]
    .filter((part) => part !== '')
    .join('\n');

  return {
    action: 'summarize' as const,
    submitted: false as const,
    overview: { intake, context: guidance, contact },
    missing_fields: missingIntake.map((f) => ({ field: f, label: FIELD_LABELS[f], pointer: `#/${f}` })),
    missing_contact_fields: missingContact.map((f) => ({ field: f, label: FIELD_LABELS[f], pointer: `#/${f}` })),
    warnings,
    ready_to_submit: missingIntake.length === 0 && missingContact.length === 0,
    markdown,
    next_step: `When ready, send the same fields with ${door.action('submit')}, "consent": true and an idempotency key (${door.key}).`,
  };
}

export type SummarizeReply = ReturnType<typeof summarize>;
