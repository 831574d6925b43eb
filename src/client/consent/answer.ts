/**
 * The confirmation page with JavaScript. On opening it asks the API what the link names (check_link,
 * which changes nothing) and shows the request, or that the link was used or has expired, with no
 * button left to press. The press posts the answer as JSON and the outcome replaces the page's words,
 * focused so a screen reader reads it. Without the request and token in the address (a link cut
 * short) the page says so and posts nothing. When the check gets no answer the page stays as it is.
 */
import { DOCUMENT_PATHS } from '../../contract/paths.ts';
import {
  answeredView,
  linkProblemView,
  linkStateView,
  type AnswerReply,
  type LinkAnswer,
  type LinkCheck,
  type LinkView,
} from '../../shared/consent/link-view.ts';
import type { ReplyView, ViewNode } from '../../shared/workspace/reply-view.ts';

const form = document.querySelector<HTMLFormElement>('form.consent-answer');
const title = document.querySelector<HTMLElement>('#answer-title');
const text = document.querySelector<HTMLElement>('#answer-text');
const result = document.querySelector<HTMLElement>('#answer-result');

/** A view's nodes as elements; text only ever becomes text nodes. (The workspace's view.ts does the same for its page.) */
function render(nodes: readonly ViewNode[]): Node[] {
  return nodes.flatMap((node): Node[] => {
    if (node === false || node === null || node === undefined || node === '') return [];
    if (typeof node === 'string') return [document.createTextNode(node)];
    if (Array.isArray(node)) return render(node as readonly ViewNode[]);
    const { tag, attrs, children } = node as Exclude<ViewNode, string | false | null | undefined | readonly ViewNode[]>;
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) element.setAttribute(name, value);
    element.append(...render(children));
    return [element];
  });
}

/** How long the opening check may take before the page gives up on it and offers the button as it is. */
const CHECK_WAIT_MS = 8_000;

/** A reply as JSON, or null when there was none or it was not JSON (a proxy's page, a dropped connection). */
async function post(
  body: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<{ status: number; data: unknown } | null> {
  try {
    const response = await fetch(DOCUMENT_PATHS.proposalApi, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      ...(signal && { signal }),
    });
    const data: unknown = await response.json().catch(() => null);
    return typeof data === 'object' && data !== null ? { status: response.status, data } : null;
  } catch {
    return null;
  }
}

if (form && title && text && result) {
  const answer = form.dataset['answer'] as LinkAnswer;
  const partner = { name: form.dataset['partner'] ?? '', email: form.dataset['email'] ?? '' };
  const button = form.querySelector('button');
  const query = new URLSearchParams(location.search);
  const link = { request_id: query.get('request'), token: query.get('token') };
  /** The request the page showed on opening (kept above the outcome), and whether it is an assistant's draft. */
  let request: Element | null = null;
  let draft = false;
  /** Set by the press: a check answered after it changes nothing on the page. */
  let pressed = false;

  const retitle = (heading: string) => {
    document.title = document.title.replace(title.textContent ?? '', heading);
    title.textContent = heading;
  };
  /** The page's words become `view`'s; `canPress` keeps the button. */
  const showState = (view: LinkView) => {
    retitle(view.title);
    text.replaceChildren(...render(view.body));
    request = text.querySelector('.link-request');
    form.hidden = !view.canPress;
  };
  /** An outcome: the heading says it, the request stays, and the reply is read out. */
  const showOutcome = (view: ReplyView, problem: boolean) => {
    retitle(view.title);
    text.replaceChildren(...(request ? [request] : []));
    result.className = problem ? 'reply problem' : 'reply';
    result.replaceChildren(...render(view.body));
    result.focus();
  };

  if (!link.request_id || !link.token) {
    form.hidden = true;
    showOutcome(
      {
        title: 'This link is incomplete',
        body: ['Open the link from the confirmation email exactly as it was sent.'],
      },
      true,
    );
  } else {
    // A used or expired link must not look pressable while the page asks: the button waits for the answer.
    if (button) button.disabled = true;
    result.textContent = 'Looking up the request this link names…';
    void post({ action: 'check_link', ...link, answer }, AbortSignal.timeout(CHECK_WAIT_MS)).then((reply) => {
      if (pressed) return;
      result.textContent = '';
      if (button) button.disabled = false;
      // No answer: the page stays as it opened, and the press still works.
      if (reply === null || reply.status >= 500) return;
      if (reply.status === 200) {
        const check = reply.data as LinkCheck;
        draft = check.consent_text !== undefined;
        showState(linkStateView(answer, check, partner));
      } else {
        const view = linkProblemView(reply.data as { type?: string }, reply.status, answer, partner);
        showState({ ...view, canPress: view.retry });
      }
    });
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    pressed = true;
    if (button) button.disabled = true;
    void post({ action: form.dataset['action'], ...link }).then((reply) => {
      if (reply !== null && reply.status >= 200 && reply.status < 300) {
        form.hidden = true;
        showOutcome(answeredView(reply.data as AnswerReply, partner, draft), false);
        return;
      }
      const view = linkProblemView(reply?.data as { type?: string } | null, reply?.status ?? 0, answer, partner);
      showOutcome(view, true);
      // A refused link stays refused (used, expired, not valid): only a failure on our side may be tried again.
      if (view.retry) {
        if (button) button.disabled = false;
      } else form.hidden = true;
    });
  });
}
