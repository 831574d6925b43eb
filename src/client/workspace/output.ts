/** Each step's result panel (`#o-<action>`) and its live message (`#m-<action>`). */
import type { ACTIONS } from '../../contract/fields.ts';
import { append, h, type Child } from './dom.ts';
import { byId, reveal } from './field-marks.ts';

export type Action = (typeof ACTIONS)[number];

/** Announces a short message for the step to screen readers. */
export function say(action: Action, text: string): void {
  const live = byId(`m-${action}`);
  if (live) live.textContent = text;
}

/** Shows the step's panel with `children`, announces `message` and moves focus there (or to `focus`). */
export function show(action: Action, children: Child[], message: string, focus?: HTMLElement): void {
  const out = byId(`o-${action}`);
  if (!out) return;
  out.replaceChildren();
  append(out, children);
  out.hidden = false;
  say(action, message);
  reveal(focus ?? out);
  (focus ?? out).focus();
}

/** Hides the step's panel and clears its message. */
export function clear(action: Action): void {
  const out = byId(`o-${action}`);
  if (out) out.hidden = true;
  say(action, '');
}

export function button(text: string, onClick: () => void): HTMLButtonElement {
  const b = h('button', { type: 'button', class: 'secondary' }, text);
  b.addEventListener('click', onClick);
  return b;
}
