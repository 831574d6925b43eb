/**
 * A client of POST /api/proposal that follows the contract: one key and body, sent again after
 * Retry-After while the answer is 409 (the key is busy) or 503 (the store did not answer), or is
 * not the function's JSON (the platform answered, e.g. a function timeout under load), until
 * `deadline`. `again` names further answers worth the same retry.
 */
import { randomUUID } from 'node:crypto';

export interface SubmitAnswer {
  /** The HTTP status; the body's own `status` is in `body`. */
  http: number;
  body: { status?: string; request_id?: string; confirmation_email?: string; [field: string]: unknown };
  /** How many times the same request was sent again. */
  retries: number;
}

export async function submitWithRetries(
  url: string,
  payload: string,
  options: {
    key?: string;
    headers?: Record<string, string>;
    deadline?: number;
    again?: (answer: SubmitAnswer) => boolean;
  } = {},
): Promise<SubmitAnswer> {
  const { key = randomUUID(), headers = {}, deadline = Date.now() + 90_000, again = () => false } = options;
  for (let retries = 0; ; retries++) {
    const res = await fetch(`${url}/api/proposal`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': key, ...headers },
      body: payload,
    });
    const fromFunction = /json/.test(res.headers.get('content-type') ?? '');
    const body = fromFunction ? ((await res.json()) as SubmitAnswer['body']) : (await res.text(), {});
    const answer = { http: res.status, body, retries };
    const retry = res.status === 409 || res.status === 503 || !fromFunction || again(answer);
    if (!retry || Date.now() > deadline) return answer;
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
  }
}
