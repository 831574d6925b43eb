/** Tiny DOM builder: server text only ever becomes text nodes, never markup. */
import { fieldLink as fieldLinkView, type ViewNode } from '../../proposal/reply-view.ts';
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
export const fieldLink = (name: string, text: string) => h('a', fieldLinkView(name, text).attrs, text);

/** DOM nodes of a reply's view (proposal/reply-view.ts): the same words the no-JS reply page shows. */
export function viewToDom(nodes: readonly ViewNode[], sectionTag: 'h2' | 'h3'): Child[] {
  return nodes.map((node): Child => {
    if (node === false || node === null || node === undefined || typeof node === 'string') return node;
    if (Array.isArray(node)) return viewToDom(node, sectionTag);
    const element = node as Exclude<ViewNode, string | false | null | undefined | readonly ViewNode[]>;
    return h(
      element.tag === 'section' ? sectionTag : element.tag,
      element.attrs,
      ...viewToDom(element.children, sectionTag),
    );
  });
}
