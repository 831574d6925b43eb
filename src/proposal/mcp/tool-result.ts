/** A pipeline Reply as an MCP tool result. */
import type { Reply } from '../../contract/http.ts';
import type { DoorWords } from '../door-words.ts';
import { IDEMPOTENCY_KEY_ARGUMENT, PROPOSAL_TOOLS } from '../tools.ts';

/** The MCP door's words for what the actions' texts point at: the tools and the key's argument. */
export const MCP_WORDS: DoorWords = {
  action: (action) => `the ${PROPOSAL_TOOLS[action].name} tool`,
  key: `the ${IDEMPOTENCY_KEY_ARGUMENT} argument`,
  schemas: "the tool's inputSchema in tools/list",
};

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
 * second text block. A refusal: `isError` and the problem details (a delay is their
 * `retry_after_seconds`, as on every door).
 */
export function toolResult(reply: Reply) {
  if (reply.status < 300) {
    const body = reply.body as Record<string, unknown>;
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
  return { isError: true, content: [text(reply.body)] };
}
