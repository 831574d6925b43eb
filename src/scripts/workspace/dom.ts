/** Tiny DOM builder: server text only ever becomes text nodes, never markup. */
export type Child = Node | string | false | null | undefined | readonly Child[];

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

export function append(node: Element, children: readonly Child[]): void {
  for (const child of children) {
    if (Array.isArray(child)) append(node, child);
    else if (child instanceof Node || (typeof child === 'string' && child !== '')) node.append(child);
  }
}

/** A link that moves focus to a form field (the click handler lives in main.ts). */
export const fieldLink = (name: string, text: string) => h('a', { href: `#f-${name}`, 'data-focus': name }, text);
