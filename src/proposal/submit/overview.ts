/** A stored request as labelled lines, shared by the confirmation email and the CRM note. */
import { FIELD_LABELS, GUIDANCE_FIELDS, INTAKE_FIELDS } from '../../contract/fields.ts';
import type { ProposalRecord } from './record.ts';

/** [label, value] pairs in reading order; absent fields are left out. */
export function overviewLines(record: ProposalRecord): Array<[string, string]> {
  const lines: Array<[string, string]> = [
    [FIELD_LABELS.name, record.contact.name],
    [FIELD_LABELS.email, record.contact.email],
    [FIELD_LABELS.company, record.contact.company],
  ];
  if (record.contact.role !== undefined) lines.push([FIELD_LABELS.role, record.contact.role]);
  for (const field of INTAKE_FIELDS) {
    const value = record.intake[field];
    if (value !== undefined) lines.push([FIELD_LABELS[field], value]);
  }
  for (const field of GUIDANCE_FIELDS) {
    const value = record.guidance[field];
    if (value !== undefined) lines.push([FIELD_LABELS[field], value]);
  }
  return lines;
}

/** Plain text, one "Label: value" per field; multi-line values are indented under their label. */
export function overviewText(record: ProposalRecord): string {
  return overviewLines(record)
    .map(([label, value]) => {
      const lines = value.split(/\r\n|\r|\n/);
      return lines.length === 1 ? `${label}: ${value}` : `${label}:\n${lines.map((line) => `  ${line}`).join('\n')}`;
    })
    .join('\n');
}
