/**
 * What the workspace shows: a tiny DOM builder (server text only ever becomes text nodes), errors
 * at their fields, each step's result panel (`#o-<action>`) and live message (`#m-<action>`), and
 * the API's replies in the words of the shared reply views (src/shared/workspace/reply-view.ts).
 */
import type { ProposalAction } from '../../contract/fields.ts';
import type { ReplyView, ViewNode } from '../../shared/workspace/reply-view.ts';

/** Reply views' nodes become elements too: the same words the no-JS reply page shows. */
export type Child = Node | ViewNode | readonly Child[];
export type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Record<string, string> | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) node.setAttribute(name, value);
  append(node, children);
  return node;
}

function append(node: Element, children: readonly Child[]): void {
  for (const child of children) {
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node || (typeof child === 'string' && child !== '')) node.append(child);
    // A reply's sections are h3 under the panel's h2.
    else if (child && typeof child === 'object' && 'tag' in child)
      node.append(h(child.tag === 'section' ? 'h3' : child.tag, child.attrs, child.children));
  }
}

const byId = (id: string) => document.getElementById(id);

/** The visible control of a field name; the honeypot does not count. */
export function fieldFor(name: string): Control | undefined {
  const el = byId(`f-${name}`);
  const isControl =
    el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement;
  return isControl && !el.closest('.trap') ? el : undefined;
}

/** Opens the step (a <details>) that holds an element, so it can be seen, and focuses it. */
export function focusField(el: HTMLElement | undefined): void {
  const step = el?.closest('details');
  if (step) step.open = true;
  el?.focus();
}

/** An error shown at its field (aria-invalid, aria-describedby after the field's hint). */
export function markField(field: Control, text: string): void {
  const id = `e-${field.name}`;
  const error = byId(id) ?? field.closest('.field')?.appendChild(h('span', { id, class: 'field-error' }));
  if (error) error.textContent = text;
  field.setAttribute('aria-invalid', 'true');
  field.setAttribute('aria-describedby', [byId(`h-${field.name}`) ? `h-${field.name}` : '', id].join(' ').trim());
}

export function clearField(field: Control | undefined): void {
  if (!field) return;
  byId(`e-${field.name}`)?.remove();
  field.removeAttribute('aria-invalid');
  if (byId(`h-${field.name}`)) field.setAttribute('aria-describedby', `h-${field.name}`);
  else field.removeAttribute('aria-describedby');
}

/** Announces a short message for the step to screen readers. */
export function say(action: ProposalAction, text: string): void {
  const live = byId(`m-${action}`);
  if (live) live.textContent = text;
}

/** Shows the step's panel with `children`, announces `message` and moves focus there (or to `focus`). */
export function show(action: ProposalAction, children: Child[], message: string, focus?: HTMLElement): void {
  const out = byId(`o-${action}`);
  if (!out) return;
  out.replaceChildren();
  append(out, children);
  out.hidden = false;
  say(action, message);
  focusField(focus ?? out);
}

/** A sent request's outcome in place of the steps (`children`), focused so it is read out; null brings the steps back. */
export function showResult(children: Child[] | null): void {
  const result = byId('ws-result');
  const steps = document.querySelector<HTMLElement>('.ws');
  if (!result || !steps) return;
  result.replaceChildren();
  if (children) append(result, children);
  result.hidden = children === null;
  steps.hidden = children !== null;
  if (children) result.focus();
}

/** Hides the step's panel and clears its message. */
export function clear(action: ProposalAction): void {
  const out = byId(`o-${action}`);
  if (out) out.hidden = true;
  say(action, '');
}

export function button(text: string, onClick: () => void): HTMLButtonElement {
  const b = h('button', { type: 'button', class: 'secondary' }, text);
  b.addEventListener('click', onClick);
  return b;
}

/** A select's value shown as its option text ("51-200 employees", not "51-200"). */
export function shown(name: string, value: string): string {
  const field = fieldFor(name);
  if (!(field instanceof HTMLSelectElement)) return value;
  return Array.from(field.options).find((o) => o.value === value)?.text ?? value;
}

/** A reply's shared view as the panel shows it. */
export const panel = (view: ReplyView): Child[] => [h('h2', null, view.title), view.body];
