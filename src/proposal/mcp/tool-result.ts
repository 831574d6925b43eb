/** A pipeline Reply as an MCP tool result, in MCP's words (./dialect.ts). */
import type { Reply } from '../../contract/http.ts';
import { IDEMPOTENCY_KEY_ARGUMENT } from '../tools.ts';
import { inMcpWords, RETRY_AFTER_MEMBER } from './dialect.ts';

/** The `_meta` key of a result that replays a stored submit (the HTTP API's Idempotent-Replayed: true). */
export const REPLAYED_META = 'io.kestrelcloud/idempotent-replayed';

const header = (reply: Reply, name: string): string | undefined => {
  const entry = Object.entries(reply.headers ?? {}).find(([key]) => key.toLowerCase() === name);
  return entry?.[1];
};

const text = (value: unknown) => ({ type: 'text' as const, text: JSON.stringify(value) });

/**
 * A submit without a key that also misses fields: the key is listed with them (the pipeline checks
 * the key only once the fields pass), so one answer names everything to add.
 */
export function withMissingKey(reply: Reply): Reply {
  const body = reply.body as { type?: string; errors?: { pointer: string; detail: string }[] } | null;
  if (reply.status !== 422 || !body?.type?.endsWith('#problem-invalid-request') || !Array.isArray(body.errors))
    return reply;
  return {
    ...reply,
    body: { ...body, errors: [...body.errors, { pointer: `#/${IDEMPOTENCY_KEY_ARGUMENT}`, detail: 'is required' }] },
  };
}

/**
 * Success: `structuredContent` and the same JSON as text. A replay says so in `_meta` and in a
 * second text block. A refusal: `isError` and the problem details, plus `retry_after_seconds`
 * where the API would send Retry-After.
 */
export function toolResult(reply: Reply, api: string) {
  if (reply.status < 300) {
    const body = inMcpWords(reply.body as Record<string, unknown>, api);
    const replayed = header(reply, 'idempotent-replayed') === 'true';
    return {
      content: [
        text(body),
        ...(replayed
          ? [
              {
                type: 'text' as const,
                text: `Replayed: this ${IDEMPOTENCY_KEY_ARGUMENT} was already used with these arguments; this is the stored result, nothing was submitted again.`,
              },
            ]
          : []),
      ],
      structuredContent: body,
      ...(replayed ? { _meta: { [REPLAYED_META]: true } } : {}),
    };
  }
  const retryAfter = Number(header(reply, 'retry-after'));
  const details = inMcpWords(
    {
      ...(reply.body as Record<string, unknown>),
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { [RETRY_AFTER_MEMBER]: retryAfter } : {}),
    },
    api,
  );
  return { isError: true, content: [text(details)] };
}
