/** The confirmation pages without JavaScript: the answer a post to a page's own address gives, and the page that replies. */
import type { Knowledge } from '../../contract/knowledge.ts';
import type { Reply } from '../../contract/http.ts';
import { CONSENT_PAGES } from '../../contract/paths.ts';
import { escapeHtml as esc } from '../../text/escape-html.ts';

/** The action a post to a confirmation page's address asks for, with the request and token its query carries. */
export function consentPageAnswer(url: string): Record<string, unknown> | undefined {
  const { pathname, searchParams } = new URL(url);
  const path = pathname.replace(/\.html$/, '');
  const action =
    path === CONSENT_PAGES.confirm ? 'confirm_request' : path === CONSENT_PAGES.deny ? 'deny_request' : undefined;
  if (action === undefined) return undefined;
  const body: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  body['action'] = action;
  body['request_id'] = searchParams.get('request') ?? '';
  body['token'] = searchParams.get('token') ?? '';
  return body;
}

type ReplyKnowledge = Knowledge & { stylesheet?: string; frame?: { header: string; footer: string } };

/** The reply in the site's frame: what happened, or the problem and that nothing changed. */
export function consentReplyPage(k: ReplyKnowledge, reply: Reply): Response {
  const body = (reply.body ?? {}) as { message?: string; title?: string; detail?: string };
  const ok = reply.status < 300;
  const title = ok ? 'Done' : (body.title ?? 'Your answer could not be recorded');
  const text = ok ? (body.message ?? 'Your answer is recorded.') : (body.detail ?? 'Nothing was changed.');
  const frame = k.frame ?? { header: '', footer: '' };
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} | ${esc(k.partner.name)}</title><meta name="robots" content="noindex">
${k.stylesheet ? `<link rel="stylesheet" href="${esc(k.stylesheet)}">` : ''}<link rel="icon" href="/favicon.svg" type="image/svg+xml"></head>
<body><a class="skip" href="#main">Skip to content</a>${frame.header}<main id="main"><h1>${esc(title)}</h1>
<div class="reply${ok ? '' : ' problem'}" role="${ok ? 'status' : 'alert'}"><p>${esc(text)}</p></div>
<p class="actions"><a href="/">${esc(k.partner.name)} home</a></p>
</main>${frame.footer}</body></html>`;
  const headers = new Headers({
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy':
      "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    'referrer-policy': 'no-referrer',
  });
  return new Response(html, { status: reply.status, headers });
}
