/**
 * The pipeline's texts are written for the HTTP API ({"action":"submit"}, the Idempotency-Key
 * header, Retry-After). Over MCP the same facts are the tool names, the `idempotency_key` argument
 * and `retry_after_seconds`: this rewrites every string of a result or problem into those words,
 * so an MCP client is never steered to the HTTP API. One table, tested in tests/unit/mcp-dialect.test.ts.
 */
import { ACTIONS } from '../../contract/fields.ts';
import { IDEMPOTENCY_KEY_ARGUMENT, PROPOSAL_TOOLS } from '../tools.ts';

/** `retry_after_seconds`: where a tool result carries what the HTTP API sends as Retry-After. */
export const RETRY_AFTER_MEMBER = 'retry_after_seconds';

const KEY = IDEMPOTENCY_KEY_ARGUMENT;

/** HTTP phrase → MCP phrase, applied in order; `api` is the proposal endpoint's URL. */
function rules(api: string): [RegExp, string | ((...m: string[]) => string)][] {
  const url = api.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [
    // {"action":"summarize"} at <api>  →  the review_proposal_request tool
    [
      new RegExp(`\\{"action":\\s*"(${ACTIONS.join('|')})"\\}(?:\\s+(?:at|to)\\s+${url})?`, 'g'),
      (_m, action) => `the ${PROPOSAL_TOOLS[action as (typeof ACTIONS)[number]].name} tool`,
    ],
    [new RegExp(`\\s+(?:at|to)\\s+${url}(?=[\\s,.;)]|$)`, 'g'), ''],
    [/\(GET \/api\/proposal\)/g, `(the tool's inputSchema in tools/list)`],
    [/\bGET \/api\/proposal\b/g, 'tools/list'],
    // "An Idempotency-Key header" (one of many headers) becomes "The idempotency_key argument".
    [
      /\b([Aa]n|[Tt]he) Idempotency-Key( header)?\b/g,
      (_m, article: string, header?: string) =>
        `${/^[AT]/.test(article) ? 'The' : 'the'} ${KEY}${header ? ' argument' : ''}`,
    ],
    [/\bIdempotency-Key header\b/g, `${KEY} argument`],
    [/\bIdempotency-Key\b/g, KEY],
    [/\b(same idempotency_key) and (the same )?body\b/g, (_m, key, same) => `${key} and ${same ?? ''}arguments`],
    [/\bafter Retry-After seconds\b/g, `after ${RETRY_AFTER_MEMBER} seconds`],
    [/\bRetry-After\b/g, RETRY_AFTER_MEMBER],
  ];
}

/** Every string in `value`, rewritten; structure, numbers and keys stay as they are. */
export function inMcpWords<T>(value: T, api: string): T {
  const table = rules(api);
  const rewrite = (text: string) =>
    table.reduce(
      (s, [pattern, to]) => s.replace(pattern, to as (substring: string, ...args: string[]) => string),
      text,
    );
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return rewrite(v);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
