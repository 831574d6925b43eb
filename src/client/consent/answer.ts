/**
 * The confirmation page with JavaScript: the button posts the answer as JSON to the API and the reply
 * is shown in place, focused so a screen reader reads it. Without the request and token in the address
 * (a link cut short) the page says so and posts nothing.
 */
import { DOCUMENT_PATHS } from '../../contract/paths.ts';

const form = document.querySelector<HTMLFormElement>('form.consent-answer');
const result = document.querySelector<HTMLElement>('#answer-result');

function show(kind: 'done' | 'problem', title: string, detail: string): void {
  if (!result) return;
  result.className = kind === 'problem' ? 'reply problem' : 'reply';
  result.replaceChildren();
  const heading = document.createElement('h2');
  heading.textContent = title;
  const text = document.createElement('p');
  text.textContent = detail;
  result.append(heading, text);
  result.focus();
}

if (form && result) {
  const query = new URLSearchParams(location.search);
  const requestId = query.get('request');
  const token = query.get('token');
  if (!requestId || !token) {
    form.hidden = true;
    show('problem', 'This link is incomplete', 'Open the link from the confirmation email exactly as it was sent.');
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const button = form.querySelector('button');
    if (button) button.disabled = true;
    void fetch(DOCUMENT_PATHS.proposalApi, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ action: form.dataset['action'], request_id: requestId, token }),
    })
      .then(async (response) => {
        const body = (await response.json().catch(() => ({}))) as { message?: string; title?: string; detail?: string };
        if (response.ok) {
          form.hidden = true;
          show('done', 'Done', body.message ?? 'Your answer is recorded.');
        } else {
          show(
            'problem',
            body.title ?? 'Your answer could not be recorded',
            body.detail ?? 'Try the link again later.',
          );
          // A refused link stays refused (used, expired, not valid): only a failure on our side may be tried again.
          if (response.status < 500) form.hidden = true;
          else if (button) button.disabled = false;
        }
      })
      .catch(() => {
        show('problem', 'No answer from the site', 'Check your connection and press the button again.');
        if (button) button.disabled = false;
      });
  });
}
