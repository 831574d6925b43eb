/**
 * The proposal workspace in the browser: posts the step forms as JSON, keeps the draft in this tab,
 * shows errors at their fields and results in place, and offers the steps as WebMCP tools. Without
 * it the same forms still post and the API answers with the workspace, filled in.
 */
import {
  ACTIONS,
  FORM_FIELDS,
  GUIDANCE_FIELDS,
  INTAKE_FIELDS,
  labelOfField,
  type ProposalAction as Action,
} from '../../contract/fields.ts';
import { isProblemType } from '../../contract/http.ts';
import type { GuideReply } from '../../proposal/actions/guide.ts';
import {
  CONSENT_MISSING,
  fieldLink,
  guideView,
  missingAtFields,
  problemSummary,
  problemView,
  submitView,
  summaryOutcome,
  summaryView,
  type ProblemBody,
  type SubmitReply,
} from '../../shared/workspace/reply-view.ts';
import { findSecret } from '../../shared/sensitive-data/detect.ts';
import { CHANNEL_HEADER, type PAGE_CHANNELS } from '../../contract/source.ts';
import type { SummarizeReply } from '../../proposal/actions/summarize.ts';
import { freshDraft, loadDraft, newKey, saveDraft, type Sent } from './draft.ts';
import {
  button,
  clear,
  clearField,
  fieldFor,
  focusField,
  h,
  markField,
  panel,
  say,
  show,
  showResult,
  shown,
  type Child,
} from './view.ts';
import { registerTools } from './webmcp.ts';

type PageChannel = (typeof PAGE_CHANNELS)[number];
type Body = Record<string, unknown>;

/** Guide accepts only its own four fields (the schemas allow no extras). */
const fieldsOf = (action: Action): readonly string[] => (action === 'guide' ? GUIDANCE_FIELDS : FORM_FIELDS);

const STILL_ON_ITS_WAY = 'Still being handled; checking again in a moment.';

const isAction = (value: unknown): value is Action => (ACTIONS as readonly unknown[]).includes(value);

// Loaded only by /proposal, whose workspace has every form and field named here.
const forms = Array.from(document.querySelectorAll<HTMLFormElement>('form[data-step]'));
// Where the forms post without the script; not form.action, which the buttons named "action" shadow.
const endpoint = forms[0]!.getAttribute('action')!;
const buttons = Array.from(document.querySelectorAll<HTMLButtonElement>('button[name="action"]'));
const sendForm = forms.find((f) => f.dataset['step'] === 'submit');
const hidden = (name: string) => sendForm?.querySelector<HTMLInputElement>(`input[type="hidden"][name="${name}"]`);
const consent = fieldFor('consent');
let draft = loadDraft();
/** The last body sent per step: a retry resends exactly it. */
const last: Partial<Record<Action, Body>> = {};
let busy = false;
/** The one scheduled resend; a new one replaces it. */
let retryTimer: number | undefined;
/**
 * An open tab re-asks about a pending submit for this long, then stops: the server's sweep keeps
 * delivering on its own backoff, and a re-post before that is due only reads the stored state.
 */
const AUTO_RETRY_MS = 10 * 60_000;
/** When this draft's submit was first answered pending (the bound above counts from it). */
let pendingSince: number | undefined;
/** Flagged values the person chose to send anyway: the server's guard decides then. */
let acknowledged = '';

// The script shows the server's errors at the fields, so the browser's own bubbles stay off.
for (const form of forms) form.noValidate = true;
// Without the script the send button comes with the review page; here it works on this page.
for (const el of document.querySelectorAll<HTMLElement>('[data-needs-script]')) el.hidden = false;
for (const name of FORM_FIELDS) {
  const field = fieldFor(name);
  const value = draft.fields[name];
  if (field && value !== undefined) field.value = value;
  checkSecret(name);
}
syncHidden();
// A request sent from this tab before a reload: its outcome, not the filled-in form again.
if (draft.sent) showSent(draft.sent);

function syncHidden(): void {
  const key = hidden('idempotency_key');
  const started = hidden('form_started_at');
  if (key) key.value = draft.key;
  if (started) started.value = String(draft.started);
}

function setBusy(value: boolean): void {
  busy = value;
  for (const b of buttons) b.disabled = value;
}

function save(): void {
  draft.fields = Object.fromEntries(FORM_FIELDS.map((name) => [name, fieldFor(name)?.value ?? '']));
  saveDraft(draft);
}

function bodyFor(action: Action): Body {
  const body: Body = { action };
  for (const name of fieldsOf(action)) {
    const value = fieldFor(name)?.value.trim();
    if (value) body[name] = value;
  }
  if (action === 'submit') {
    body['consent'] = consent instanceof HTMLInputElement && consent.checked;
    body['consent_version'] = consent?.dataset['version'];
    const trap = sendForm?.querySelector<HTMLInputElement>('input[name="website"]')?.value;
    if (trap) body['website'] = trap;
    body['form_started_at'] = draft.started;
  }
  return body;
}

function checkSecret(name: string): boolean {
  const field = fieldFor(name);
  const found = field && !(field instanceof HTMLSelectElement) ? findSecret(field.value) : undefined;
  if (field && found) markField(field, `This looks like ${found}. Remove it and describe it instead.`);
  return found !== undefined;
}

/** Flags likely secrets at their fields and stops the first attempt; a second press sends. */
function blockedBySecrets(action: Action): boolean {
  const flagged = fieldsOf(action).filter(checkSecret);
  const signature = flagged.map((name) => `${name}=${fieldFor(name)?.value ?? ''}`).join('\n');
  if (flagged.length === 0 || signature === acknowledged) return false;
  acknowledged = signature;
  const labels = flagged.map(labelOfField).join(', ');
  show(
    action,
    [
      h('h2', null, 'Possible secret found'),
      h(
        'ul',
        null,
        flagged.map((name) => h('li', null, fieldLink(name, labelOfField(name)))),
      ),
      h(
        'p',
        null,
        'Remove it and describe it instead. If you are sure it is not a secret, press the button again: our server checks it too.',
      ),
    ],
    `Nothing was sent: possible secret in ${labels}.`,
    fieldFor(flagged[0] ?? ''),
  );
  return true;
}

const resend = (action: Action) => () => void run(action, last[action]);
const retryButton = (action: Action, text = 'Try again') => button(text, resend(action));
const schedule = (action: Action, seconds: number) => {
  window.clearTimeout(retryTimer);
  retryTimer = window.setTimeout(resend(action), seconds * 1000);
};

async function post(action: Action, body: Body, by: PageChannel) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    [CHANNEL_HEADER]: by,
  };
  // One key per draft: a double click, a retry or a reload all resend the same key.
  if (action === 'submit') headers['idempotency-key'] = draft.key;
  const res = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(body) });
  // A body that is not JSON (a proxy's error page) reads as null and is shown as a failure.
  const data: unknown = await res.json().catch(() => null);
  return { status: res.status, retryAfter: Number(res.headers.get('retry-after')) || 0, data };
}

/**
 * Runs a step; resolves with the API's reply when one came (WebMCP tools return it). `by`: who
 * pressed the button, a person or a WebMCP tool; the stored request records it.
 */
async function run(
  action: Action,
  again?: Body,
  by: PageChannel = 'workspace',
): Promise<{ status: number; data: unknown } | undefined> {
  if (busy) {
    // An automatic resend that meets another request in flight tries again shortly.
    if (again) schedule(action, 2);
    return undefined;
  }
  // Only a new submit replaces a scheduled resend of a pending one; guidance and review do not.
  if (action === 'submit') window.clearTimeout(retryTimer);
  for (const name of [...FORM_FIELDS, 'consent']) clearField(fieldFor(name));
  if (!again && blockedBySecrets(action)) return undefined;
  // The server refuses a submit without consent too, but its wording is for API clients.
  if (!again && action === 'submit' && consent instanceof HTMLInputElement && !consent.checked) {
    // Said once, at the box: focus moves there and its description reads the error out.
    markField(consent, CONSENT_MISSING);
    clear(action);
    focusField(consent);
    return undefined;
  }
  const body = again ?? bodyFor(action);
  last[action] = body;
  setBusy(true);
  say(action, action === 'submit' ? 'Sending…' : 'Working…');
  try {
    const reply = await post(action, body, by);
    handle(action, body, reply);
    return { status: reply.status, data: reply.data };
  } catch {
    tell(
      action,
      [
        h('h2', null, 'Could not reach our site'),
        h(
          'p',
          null,
          'Check your connection, then try again. Your draft stays in this tab',
          action === 'submit' ? ', and trying again never sends your request twice.' : '.',
        ),
        retryButton(action),
      ],
      'Could not reach our site. Check your connection, then try again.',
    );
    return undefined;
  } finally {
    setBusy(false);
  }
}

function handle(action: Action, body: Body, reply: { status: number; retryAfter: number; data: unknown }): void {
  const { status, retryAfter, data } = reply;
  if (status >= 200 && status < 300 && typeof data === 'object' && data !== null) {
    if (action === 'guide') {
      const g = data as GuideReply;
      show(
        action,
        [
          ...panel(guideView(g, { preselected: preselect(g) })),
          button('Continue: describe your request', () => focusField(fieldFor(INTAKE_FIELDS[0]))),
        ],
        'Guidance is ready below.',
      );
    } else if (action === 'summarize') {
      const s = data as SummarizeReply;
      // What is missing is marked at its field, and the overview links to each.
      const missing = missingAtFields(s);
      for (const [name, text] of Object.entries(missing)) {
        const field = fieldFor(name);
        if (field) markField(field, text);
      }
      show(
        action,
        // As sent: the reply names a model as "Name (id)" for API clients; people read the option's text.
        panel(summaryView(s, (name, value) => shown(name, typeof body[name] === 'string' ? body[name] : value))),
        `Overview ready. ${summaryOutcome(s)}`,
      );
    } else {
      // Pending: stored, not yet accepted by the CRM; keep checking with the same key and body.
      // Received, awaiting the person's confirmation, or failed (our team follows up): nothing to retry.
      const r = data as SubmitReply;
      const text = (name: string) => (typeof body[name] === 'string' ? body[name] : undefined);
      const sent: Sent = { reply: r, who: { email: text('email'), company: text('company') }, body };
      draft.sent = sent;
      saveDraft(draft);
      if (r.status === 'pending') pendingSince ??= Date.now();
      const handedOver = r.status === 'pending' && Date.now() - pendingSince! >= AUTO_RETRY_MS;
      const wait =
        r.status === 'pending' && !handedOver
          ? Math.min(Math.max(retryAfter || r.retry_after_seconds, 2), 300)
          : undefined;
      if (wait !== undefined) schedule(action, wait);
      showSent(sent, wait);
    }
    return;
  }
  if (status === 409) {
    // The same key is still being processed (a retry raced the first try): ask again shortly.
    schedule(action, Math.min(retryAfter || 2, 30));
    if (draft.sent && action === 'submit') showSent(draft.sent, undefined, [h('p', null, STILL_ON_ITS_WAY)]);
    else say(action, STILL_ON_ITS_WAY);
    return;
  }
  // No problem body (a proxy's error page, nothing at all): the site failed, not the request.
  const p: ProblemBody | null = typeof data === 'object' && data !== null ? data : null;
  const view = problemView(p, (name) => fieldFor(name) !== undefined);
  const named = Object.keys(view.atFields);
  for (const name of named) markField(fieldFor(name)!, view.atFields[name]!);
  const reused = isProblemType(p?.type, 'idempotency-key-reused');
  const extra = reused
    ? button('Send it as a new request', () => {
        draft.key = newKey();
        saveDraft(draft);
        syncHidden();
        void run('submit');
      })
    : view.ours && retryButton(action);
  tell(
    action,
    [...panel(view), extra],
    `${problemSummary(p)}${named.length > 0 ? ` Check: ${named.map(labelOfField).join(', ')}.` : ''}`,
    fieldFor(named[0] ?? ''),
  );
}

/**
 * A sent request's outcome, in place of the steps: a pending one can be checked again ("Try now"
 * resends the body that was sent), every other is done and leaves only a new request to start.
 */
function showSent(sent: Sent, wait?: number, note: Child[] = []): void {
  const pending = sent.reply.status === 'pending';
  showResult([
    ...panel(submitView(sent.reply, sent.who, wait)),
    note.length > 0 && h('div', { class: 'reply problem', role: 'alert' }, note),
    h(
      'p',
      { class: 'actions' },
      pending && button('Try now', () => void run('submit', sent.body)),
      button('Start a new request', startOver),
    ),
  ]);
}

/** A failure shown in its step, or under the outcome when a sent request was being checked again (its step is hidden). */
function tell(action: Action, children: Child[], message: string, focus?: HTMLElement): void {
  if (action === 'submit' && draft.sent) showSent(draft.sent, undefined, children);
  else show(action, children, message, focus);
}

function preselect(g: GuideReply): boolean {
  const select = fieldFor('engagement_model');
  if (!g.engagement_model || !select || select.value) return false;
  select.value = g.engagement_model.id;
  save();
  return true;
}

/** A new draft with a new key, after the person chose to start over. */
function startOver(): void {
  pendingSince = undefined;
  showResult(null);
  for (const form of forms) form.reset();
  window.clearTimeout(retryTimer);
  draft = saveDraft(freshDraft());
  acknowledged = '';
  syncHidden();
  for (const action of ACTIONS) clear(action);
  focusField(fieldFor('question'));
}

for (const form of forms) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    // Each step's form has one button, named for its step: Enter in a field submits it too.
    const step = form.dataset['step'];
    if (isAction(step)) void run(step);
  });
}
// Browsers differ on Enter in a checkbox (the spec does not submit); here it sends, as in the text fields.
consent?.addEventListener('keydown', (event) => {
  if (!(event instanceof KeyboardEvent) || event.key !== 'Enter' || event.isComposing) return;
  event.preventDefault();
  void run('submit');
});

document.addEventListener('input', (event) => {
  const name = event.target instanceof Element ? (event.target.getAttribute('name') ?? '') : '';
  if (!FORM_FIELDS.includes(name) && name !== 'consent') return;
  clearField(fieldFor(name));
  checkSecret(name);
  save();
});

document.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest<HTMLElement>('a[data-focus]') : null;
  if (!link) return;
  event.preventDefault();
  focusField(fieldFor(link.dataset['focus'] ?? ''));
});

void registerTools({
  fill(values) {
    for (const [name, value] of Object.entries(values)) {
      const field = fieldFor(name);
      if (field && FORM_FIELDS.includes(name) && typeof value === 'string') field.value = value;
    }
    save();
  },
  consent(agreed) {
    if (consent instanceof HTMLInputElement) consent.checked = agreed;
  },
  run: (action) => run(action, undefined, 'webmcp'),
});
