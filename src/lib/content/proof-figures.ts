import type { SiteModel } from './model.ts';

/** The partner's record as figures, e.g. `{ value: "50+", label: "customer launches" }`. */
export function proofFigures(model: SiteModel): { value: string; label: string }[] {
  const e = model.evidence.data;
  const provider = model.site.data.cloud_provider;
  return [
    { value: String(e.competencies.length), label: `${provider} competencies` },
    { value: e.certifications, label: `${provider} certifications` },
    { value: e.customer_launches, label: 'customer launches' },
  ];
}
