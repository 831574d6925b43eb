/** Errors shown at their fields (aria-invalid, aria-describedby) and steps opened to show a field. */
import { h } from './dom.ts';
import type { Control } from './render.ts';

export const byId = (id: string) => document.getElementById(id);

/** Opens the step (a <details>) that holds an element, so it can be seen and focused. */
export function reveal(el: Element | null | undefined): void {
  const step = el?.closest('details');
  if (step) step.open = true;
}

export function markField(field: Control, text: string): void {
  const id = `e-${field.name}`;
  const error = byId(id) ?? field.closest('.field')?.appendChild(h('span', { id, class: 'field-error' }));
  if (error) error.textContent = text;
  field.setAttribute('aria-invalid', 'true');
  field.setAttribute('aria-describedby', [byId(`h-${field.name}`) ? `h-${field.name}` : '', id].join(' ').trim());
}

export function clearField(field: Control): void {
  byId(`e-${field.name}`)?.remove();
  field.removeAttribute('aria-invalid');
  if (byId(`h-${field.name}`)) field.setAttribute('aria-describedby', `h-${field.name}`);
  else field.removeAttribute('aria-describedby');
}
