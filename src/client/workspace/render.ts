/** The workspace's readable views of the API's replies: the shared reply views, and problem details. */
import { fieldOfPointer, labelOfField } from '../../contract/fields.ts';
import type { GuideReply } from '../../proposal/guide.ts';
import type { SummarizeReply } from '../../proposal/summarize.ts';
import { guideView, submitView, summaryView, type ReplyView, type SubmitReply } from '../../proposal/reply-view.ts';
import { fieldLink, h, viewToDom, type Child } from './dom.ts';

export type { SubmitReply };

export interface Problem {
  title?: string;
  detail?: string;
  type?: string;
  errors?: { pointer: string; detail: string }[];
}

/** A select's value shown as its option text ("51-200 employees", not "51-200"). */
function shown(name: string, value: string): string {
  const field = document.getElementById(`f-${name}`);
  if (!(field instanceof HTMLSelectElement)) return value;
  return Array.from(field.options).find((o) => o.value === value)?.text ?? value;
}

/** A reply's shared view (proposal/reply-view.ts) as the panel shows it: title h2, sections h3. */
const panel = (view: ReplyView): Child[] => [h('h2', null, view.title), ...viewToDom(view.body, 'h3')];

export const guidePanel = (g: GuideReply, preselected: boolean): Child[] => panel(guideView(g, { preselected }));

export const summaryPanel = (s: SummarizeReply): Child[] => panel(summaryView(s, shown));

export const submitPanel = (r: SubmitReply, email: string, retryIn: number | undefined): Child[] =>
  panel(submitView(r, { ...(email !== '' && { email }), ...(retryIn !== undefined && { retryIn }) }));

/** Problem details with links to the named fields; errors without a field are listed as text. */
export function problemView(p: Problem, heading: string): Child[] {
  return [
    h('h2', null, heading),
    // The contract's wording ("does not match the contract") speaks to API clients; people get the list.
    h(
      'p',
      null,
      p.type?.endsWith('-invalid-request')
        ? 'Some fields are missing or not valid:'
        : [p.title, p.detail].filter(Boolean).join('. '),
    ),
    (p.errors ?? []).length > 0 &&
      h(
        'ul',
        null,
        (p.errors ?? []).map((e) => {
          const name = fieldOfPointer(e.pointer);
          return h(
            'li',
            null,
            fieldFor(name) ? fieldLink(name, labelOfField(name)) : labelOfField(name || 'request'),
            ` ${e.detail}`,
          );
        }),
      ),
  ];
}

export type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** The visible control of a field name; the honeypot does not count. */
export function fieldFor(name: string): Control | undefined {
  const el = name ? document.getElementById(`f-${name}`) : null;
  const control =
    el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement
      ? el
      : undefined;
  return control?.closest('.trap') ? undefined : control;
}
