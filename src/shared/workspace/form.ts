/** The workspace's forms as HTML: empty on /proposal, filled in on every no-JS reply page, so nothing typed is lost. */
import type { Knowledge } from '../../contract/knowledge.ts';
import { requestSchemas } from '../../contract/contract.ts';
import {
  COMPANY_SIZES,
  CONTACT_FIELDS,
  FIELD_LABELS,
  FORM_FIELDS,
  GUIDANCE_FIELDS,
  INTAKE_FIELDS,
  MAX_SHORT_LENGTH,
  MAX_TEXT_LENGTH,
  NOT_SURE,
  NOT_SURE_LABEL,
  OPTIONAL_CONTACT_FIELDS,
  REQUIRED_INTAKE_FIELDS,
  type ProposalAction,
} from '../../contract/fields.ts';
import { DOCUMENT_PATHS, PAGE_PATHS } from '../../contract/paths.ts';
import { escapeHtml as esc } from '../../text/escape-html.ts';
import { PROPOSAL_TOOLS } from '../../contract/tools.ts';

type FieldName = keyof typeof FIELD_LABELS;
/** Fields of step 2 (the request), in the order people fill them in. */
const REQUEST_FIELDS = [...INTAKE_FIELDS, ...CONTACT_FIELDS, ...OPTIONAL_CONTACT_FIELDS] as const;

function selectOptions(k: Knowledge): Partial<Record<FieldName, { value: string; label: string }[]>> {
  return {
    company_size: COMPANY_SIZES.map((s) => ({ value: s, label: `${s} employees` })),
    primary_need: [
      ...k.capabilities.map((c) => ({ value: c.id, label: c.name })),
      { value: NOT_SURE, label: NOT_SURE_LABEL },
    ],
    engagement_model: k.engagement_models.map((m) => ({ value: m.id, label: m.name })),
  };
}

export function displayValue(k: Knowledge, name: string, value: string): string {
  return selectOptions(k)[name as FieldName]?.find((o) => o.value === value)?.label ?? value;
}

export function neverSendRule(k: Knowledge): string {
  const rule = k.agent_guidance.find((g) => /^never send credentials/i.test(g));
  if (!rule)
    throw new Error('agent_guidance needs the rule that starts "Never send credentials"; the workspace shows it');
  return rule;
}

/** What was typed and each invalid field's message; on reply pages, a live send button and the overview to review. */
export interface FormState {
  values?: Readonly<Record<string, string>>;
  errors?: Readonly<Record<string, string>>;
  canSend?: boolean;
  reviewHtml?: string;
}

type FieldKind = 'text' | 'email' | 'tel' | 'textarea' | 'select';

function fieldRenderer(k: Knowledge, state: FormState) {
  const values = state.values ?? {};
  const errors = state.errors ?? {};
  const schema = requestSchemas(k).submit.properties as Record<
    string,
    { description?: string; maxLength?: number } | undefined
  >;
  const options = selectOptions(k);
  // What its step's button needs: guidance needs all of step 1, a request the required fields of step 2.
  const required = new Set<string>([...GUIDANCE_FIELDS, ...REQUIRED_INTAKE_FIELDS, ...CONTACT_FIELDS]);
  // Step 2 marks what a request can go without; step 1 says once that guidance needs every field.
  const optional = new Set<string>(REQUEST_FIELDS.filter((name) => !required.has(name)));

  /** A contract description that only restates its label is dropped; "Label: detail" keeps the detail. */
  const hint = (name: FieldName): string | undefined => {
    // A select's options already name the choices; its hint keeps the sentence before them.
    const full = schema[name]?.description;
    let text = options[name] ? full?.split(':')[0]?.replace(/\.?$/, '.') : full;
    const label = FIELD_LABELS[name];
    const bare = (s: string) => s.toLowerCase().replace(/[.\s]+$/, '');
    if (!text || bare(text) === bare(label)) return undefined;
    // The label says "(optional)" already.
    if (optional.has(name)) text = text.replace(/ \(optional\)/, '');
    const detail = text.toLowerCase().startsWith(`${label.toLowerCase()}: `) ? text.slice(label.length + 2) : text;
    return detail.charAt(0).toUpperCase() + detail.slice(1);
  };

  return (name: FieldName, kind: FieldKind, extra: { autocomplete?: string; hintHtml?: string } = {}) => {
    const id = `f-${name}`;
    const isRequired = required.has(name);
    const hintText = hint(name);
    const hintHtml = extra.hintHtml ?? (hintText ? esc(hintText) : '');
    const error = errors[name];
    const describedby = [hintHtml && `h-${name}`, error && `e-${name}`].filter(Boolean).join(' ');
    const common = `id="${id}" name="${name}"${isRequired ? ' required' : ''}${describedby ? ` aria-describedby="${describedby}"` : ''}${error ? ' aria-invalid="true"' : ''} toolparamdescription="${esc(hintText ?? FIELD_LABELS[name])}"`;
    const value = values[name] ?? '';
    const option = (o: { value: string; label: string }) =>
      `<option value="${esc(o.value)}"${o.value === value ? ' selected' : ''}>${esc(o.label)}</option>`;
    const max = schema[name]?.maxLength ?? (kind === 'textarea' ? MAX_TEXT_LENGTH : MAX_SHORT_LENGTH);
    const control =
      kind === 'textarea'
        ? `<textarea ${common} rows="3" maxlength="${max}">${esc(value)}</textarea>`
        : kind === 'select'
          ? `<select ${common}><option value="">Choose…</option>${(options[name] ?? []).map(option).join('')}</select>`
          : `<input ${common} type="${kind}" maxlength="${max}"${extra.autocomplete ? ` autocomplete="${extra.autocomplete}"` : ''}${value ? ` value="${esc(value)}"` : ''}>`;
    return `<div class="field"><label for="${id}">${esc(FIELD_LABELS[name])}${optional.has(name) ? '<span class="req"> (optional)</span>' : ''}</label>${
      hintHtml ? `<span class="hint" id="h-${name}">${hintHtml}</span>` : ''
    }${control}${error ? `<span class="field-error" id="e-${name}">${esc(error)}</span>` : ''}</div>`;
  };
}

export function workspaceFormsHtml(k: Knowledge, state: FormState = {}): string {
  const values = state.values ?? {};
  const errors = state.errors ?? {};
  const isReply = state.values !== undefined;
  const field = fieldRenderer(k, state);

  /** Values typed in other steps, carried along so the next reply page still has them. */
  const carry = (names: readonly string[]) =>
    names
      .filter((n) => values[n])
      .map((n) => `<input type="hidden" name="${n}" value="${esc(values[n])}">`)
      .join('');

  const form = (action: ProposalAction, id: string, body: string) =>
    `<form id="${id}" data-step="${action}" method="post" action="${DOCUMENT_PATHS.proposalApi}" toolname="${PROPOSAL_TOOLS[action].name}" tooldescription="${esc(PROPOSAL_TOOLS[action].description)}">${body}</form>`;
  const out = (action: ProposalAction) =>
    `<p class="ws-msg" id="m-${action}" role="status"></p><div class="ws-out" id="o-${action}" tabindex="-1" hidden></div>`;

  const textareas = INTAKE_FIELDS.filter((n) => n !== 'engagement_model').map((n) => field(n, 'textarea'));
  const modelField = field('engagement_model', 'select', {
    hintHtml: 'Compare them on <a href="/delivery-models">Delivery models</a>, or ask for guidance in step 1.',
  });
  const guideForm = form(
    'guide',
    'guide-form',
    `<div class="step-body"><p class="hint" id="guide-needs">Guidance needs all four answers. Your request can be sent without them.</p>${field('question', 'textarea')}<div class="grid2">${field('industry', 'text')}${field('company_size', 'select')}</div>${field('primary_need', 'select')}${carry(REQUEST_FIELDS)}<div class="actions"><button name="action" value="guide" formnovalidate>Get guidance</button></div>${out('guide')}</div>`,
  );
  const requestForm = form(
    'summarize',
    'workspace',
    `<div class="step-body"><p class="notice warning" id="never-send"><strong>${esc(neverSendRule(k))}</strong> Describe such things instead; requests that contain them are refused.</p><p class="hint">Every field here is needed to send your request, except those marked optional.</p><div class="grid2">${textareas.join('')}</div>${modelField}<fieldset><legend>Contact details</legend><div class="grid2">${field('name', 'text', { autocomplete: 'name' })}${field('email', 'email', { autocomplete: 'email' })}${field('company', 'text', { autocomplete: 'organization' })}${field('role', 'text', { autocomplete: 'organization-title' })}${field('phone', 'tel', { autocomplete: 'tel' })}</div></fieldset>${carry(GUIDANCE_FIELDS)}<div class="actions"><button name="action" value="summarize" formnovalidate>Review my request</button></div></div>`,
  );
  const consentError = errors['consent'];
  // Without JavaScript the send form on /proposal holds no values yet: review first, and the
  // reply page brings the send button with everything typed. The script shows it on /proposal.
  const sendForm = form(
    'submit',
    'send-form',
    `<div class="field"><div class="checkbox"><input type="checkbox" id="f-consent" name="consent" required data-version="${esc(k.consent.version)}" aria-describedby="h-consent${consentError ? ' e-consent' : ''}"${consentError ? ' aria-invalid="true"' : ''} toolparamdescription="True only when the person agreed to this consent text."><label for="f-consent">${esc(k.consent.text)}</label></div><span class="hint" id="h-consent">Consent text version ${esc(k.consent.version)}. What we keep, where and for how long: <a href="${PAGE_PATHS.privacy}">privacy notice</a>.</span>${consentError ? `<span class="field-error" id="e-consent">${esc(consentError)}</span>` : ''}</div>` +
      `<div class="trap" aria-hidden="true"><label for="f-website">Leave this field empty</label><input id="f-website" name="website" type="text" tabindex="-1" autocomplete="off"></div>` +
      `<input type="hidden" name="idempotency_key" value=""><input type="hidden" name="form_started_at" value="${esc(values['form_started_at'] ?? '')}">${carry(FORM_FIELDS)}` +
      `<div class="actions"${state.canSend ? '' : ' data-needs-script hidden'}><button name="action" value="submit">Send my request</button></div>${
        state.canSend
          ? ''
          : '<noscript><p class="hint">Review your request first: the overview page brings the send button with everything you typed.</p></noscript>'
      }${out('submit')}`,
  );

  // The script shows a sent request's outcome here, in place of the steps (without it, the reply page does).
  return `<div class="ws-result" id="ws-result" tabindex="-1" hidden></div>
<div class="ws">
<div class="ws-main">
<details class="step" id="step-guide" open><summary>1. Ask a question <span class="hint">guidance before you describe your request; no contact details</span></summary>${guideForm}</details>
<details class="step" id="step-request" open><summary>2. Describe your request</summary>${requestForm}</details>
</div>
<div class="ws-side">
<section class="panel" aria-labelledby="review-h"><h2 id="review-h">3. Review</h2><p class="hint">See your request as we will receive it and what is still missing. Nothing is sent.</p>${state.reviewHtml ?? (isReply ? '' : out('summarize'))}</section>
<section class="panel" aria-labelledby="send-h"><h2 id="send-h">4. Consent and send</h2>${sendForm}</section>
</div>
</div>`;
}

/** The home page's "Ask a question" form: the guidance step, and the WebMCP tool request_guidance, without script. */
export function askFormHtml(k: Knowledge): string {
  const field = fieldRenderer(k, {});
  const tool = PROPOSAL_TOOLS.guide;
  return `<form class="ask" id="ask" method="post" action="${DOCUMENT_PATHS.proposalApi}" toolname="${tool.name}" tooldescription="${esc(tool.description)}"><input type="hidden" name="action" value="guide">${field('question', 'textarea')}<div class="grid3">${field('industry', 'text')}${field('company_size', 'select')}${field('primary_need', 'select')}</div><div class="actions"><button type="submit">Get guidance</button><span class="hint">Non-binding; no contact details; nothing is stored.</span></div></form>`;
}
