/**
 * Over MCP the pipeline's texts speak MCP: tool names, the idempotency_key argument and
 * retry_after_seconds, never the HTTP API's action bodies, header or endpoint.
 */
import { describe, expect, it } from 'vitest';
import { PROBLEM_TYPES, problem, problemMeaning, type ProblemType } from '../../src/contract/http.ts';
import { internalError } from '../../src/proposal/pipeline.ts';
import { parseIdempotencyKey } from '../../src/proposal/submit/idempotency-key.ts';
import { inMcpWords } from '../../src/proposal/mcp/dialect.ts';
import { toolResult, withMissingKey } from '../../src/proposal/mcp/tool-result.ts';

const API = 'https://kestrelcloud.example/api/proposal';
const HTTP_WORDS = /Idempotency-Key|header|Retry-After|\{"action"|\/api\/proposal/;

describe('MCP words', () => {
  it('rewrites the guide and summarize next steps to the tools', () => {
    expect(
      inMcpWords(`Review your request with {"action":"summarize"} at ${API}, or in the proposal workspace.`, API),
    ).toBe('Review your request with the review_proposal_request tool, or in the proposal workspace.');
    expect(
      inMcpWords('Submit it with {"action":"submit"}, consent and an Idempotency-Key header when it is ready.', API),
    ).toBe(
      'Submit it with the submit_proposal_request tool, consent and the idempotency_key argument when it is ready.',
    );
    expect(
      inMcpWords(
        `When ready, send the same fields with {"action":"submit"}, "consent": true and an Idempotency-Key header to ${API}.`,
        API,
      ),
    ).not.toMatch(HTTP_WORDS);
  });

  it('leaves no HTTP term in any problem title, advice or key refusal', () => {
    for (const type of Object.keys(PROBLEM_TYPES) as ProblemType[]) {
      expect(inMcpWords(problemMeaning(type), API), type).not.toMatch(HTTP_WORDS);
    }
    for (const sent of [null, '', '"open', 'x'.repeat(300), 'a b']) {
      const parsed = parseIdempotencyKey(sent);
      if (!parsed.ok) expect(JSON.stringify(inMcpWords(parsed.reply.body, API))).not.toMatch(HTTP_WORDS);
    }
    expect(JSON.stringify(inMcpWords(internalError().body, API))).not.toMatch(HTTP_WORDS);
    expect(inMcpWords(PROBLEM_TYPES['missing-idempotency-key'].title, API)).toBe(
      'The idempotency_key argument is required',
    );
  });

  it('a refusal carries Retry-After as retry_after_seconds; a replay is marked', () => {
    const busy = problem('idempotency-key-in-use', 'Retry after Retry-After seconds.', {
      headers: { 'Retry-After': '2' },
    });
    const refused = toolResult(busy, API);
    expect(refused.isError).toBe(true);
    expect(JSON.parse(refused.content[0]!.text)).toMatchObject({ retry_after_seconds: 2 });
    const replay = toolResult(
      { status: 201, headers: { 'Idempotent-Replayed': 'true' }, body: { status: 'received' } },
      API,
    );
    expect(replay).toMatchObject({ structuredContent: { status: 'received' }, _meta: expect.any(Object) });
    expect(replay.content).toHaveLength(2);
  });

  it('a submit missing fields and its key lists the key with the fields', () => {
    const invalid = problem('invalid-request', 'x', { errors: [{ pointer: '#/email', detail: 'is required' }] });
    expect((withMissingKey(invalid).body as { errors: unknown[] }).errors).toEqual([
      { pointer: '#/email', detail: 'is required' },
      { pointer: '#/idempotency_key', detail: 'is required' },
    ]);
  });
});
