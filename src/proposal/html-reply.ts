/**
 * The reply to a plain HTML form post (the workspace without JavaScript): a small readable page
 * with the result or the errors and a way back. All text is escaped; no script.
 */
import type { Knowledge } from '../lib/knowledge.ts';
import { fieldOfPointer, labelOfField, type ProposalAction } from './fields.ts';
import type { FieldError, Reply } from './http.ts';
import type { GuideReply } from './guide.ts';
import type { SummarizeReply } from './summarize.ts';

const esc = (s: unknown) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const items = (xs: readonly string[]) => `<ul>${xs.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>`;

function labelOf(pointer: string): string {
  const field = fieldOfPointer(pointer);
  return field ? labelOfField(field) : 'Request';
}

function problemBody(body: { title?: string; detail?: string; errors?: FieldError[] }): [string, string] {
  const errors = body.errors ?? [];
  return [
    'Please check your request',
    `<div role="alert"><p>${esc(body.title)}. ${esc(body.detail)}</p>${
      errors.length > 0 ? `<ul>${errors.map((e) => `<li><strong>${esc(labelOf(e.pointer))}</strong> ${esc(e.detail)}</li>`).join('')}</ul>` : ''
    }</div><p>Use your browser's Back button to return to the form with your answers, correct them and send again.</p>`,
  ];
}

function guideBody(g: GuideReply): [string, string] {
  return [
    'Guidance for your question',
    `<p>${esc(g.notice)}</p>
<h2>Capabilities that fit</h2>${g.capabilities.length > 0 ? `<ul>${g.capabilities.map((c) => `<li><strong>${esc(c.name)}</strong>: ${esc(c.summary)} <em>(${esc(c.why)})</em></li>`).join('')}</ul>` : '<p>No single capability stands out yet; an assessment is a good start.</p>'}
${g.engagement_model ? `<h2>Suggested engagement model</h2><p><strong>${esc(g.engagement_model.name)}</strong>: ${esc(g.engagement_model.description)}</p>` : ''}
<h2>Cloud program context</h2><p>${esc(g.cloud_program_context.summary)}</p><p><em>${esc(g.cloud_program_context.disclaimer)}</em></p>
<h2>Prepare</h2>${items(g.prepare)}`,
  ];
}

function summaryBody(s: SummarizeReply): [string, string] {
  const section = (title: string, fields: Record<string, string | undefined>) => {
    const rows = Object.entries(fields).filter(([, v]) => v);
    return rows.length > 0
      ? `<h2>${esc(title)}</h2><dl>${rows.map(([k, v]) => `<dt>${esc(labelOfField(k))}</dt><dd>${esc(v)}</dd>`).join('')}</dl>`
      : '';
  };
  return [
    'Your proposal request, for review',
    `<p>Nothing has been submitted.</p>${section('Intake', s.overview.intake)}${section('Context', s.overview.context)}${section('Contact', s.overview.contact)}
${s.missing_fields.length + s.missing_contact_fields.length > 0 ? `<h2>Still missing</h2>${items([...s.missing_fields, ...s.missing_contact_fields].map((f) => f.label))}` : ''}
<h2>Check before sending</h2>${items(s.warnings)}`,
  ];
}

function submitBody(b: { status?: string; request_id?: string; message?: string }): [string, string] {
  const received = b.status === 'received';
  return [
    received ? 'Proposal request received' : 'Proposal request stored, delivery pending',
    // The message already says whether an email was sent (only when confirmation_email is "sent").
    `<p role="status">${esc(b.message)}</p><p>Request id: <code>${esc(b.request_id)}</code></p>
${received ? '' : '<p>Your request is stored safely. Send the same form again later to complete delivery; it will not be duplicated.</p>'}`,
  ];
}

/** Protocol headers of the reply that keep their meaning on an HTML page. */
function passedThrough(reply: Reply): Record<string, string> {
  const headers = new Headers(reply.headers);
  return Object.fromEntries(['retry-after', 'idempotent-replayed'].flatMap((name) => {
    const value = headers.get(name);
    return value ? [[name, value]] : [];
  }));
}

export function htmlReply(k: Knowledge & { stylesheet?: string }, reply: Reply, action: ProposalAction | undefined): Response {
  const body = reply.body as Record<string, unknown>;
  const [title, content] =
    reply.status >= 400
      ? problemBody(body)
      : action === 'guide'
        ? guideBody(body as unknown as GuideReply)
        : action === 'summarize'
          ? summaryBody(body as unknown as SummarizeReply)
          : submitBody(body);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} | ${esc(k.partner.name)}</title><meta name="robots" content="noindex">
${k.stylesheet ? `<link rel="stylesheet" href="${esc(k.stylesheet)}">` : ''}</head>
<body><main id="main"><h1>${esc(title)}</h1>${content}
<p><a href="/proposal">Back to the proposal workspace</a> · <a href="/">${esc(k.partner.name)} home</a></p></main></body></html>`;
  return new Response(html, {
    status: reply.status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
      ...passedThrough(reply),
    },
  });
}
