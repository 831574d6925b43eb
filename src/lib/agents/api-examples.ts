/**
 * Request/response exchanges for the developer page, all taken from the published contract
 * (its example requests and the responses the real actions compute from the content).
 */
import type { Contract } from '../../contract/contract.ts';
import type { Knowledge } from '../../contract/knowledge.ts';
import { consentRequired, withProblemBase } from '../../contract/http.ts';
import { DOCUMENT_PATHS } from '../../contract/paths.ts';

const REASONS: Record<number, string> = { 200: 'OK', 201: 'Created', 422: 'Unprocessable Content' };

const message = (head: string[], body: unknown) => [...head, '', JSON.stringify(body, null, 2)].join('\n');

const response = ({ status, body }: { status: number; body: unknown }, headers: string[] = []) =>
  message(
    [
      `HTTP/1.1 ${status} ${REASONS[status] ?? ''}`.trim(),
      `Content-Type: ${status >= 400 ? 'application/problem+json' : 'application/json'}`,
      ...headers,
    ],
    body,
  );

export function apiExamples(contract: Contract, k: Knowledge) {
  const request = (body: unknown, headers: string[] = []) =>
    message(
      [
        `POST ${DOCUMENT_PATHS.proposalApi} HTTP/1.1`,
        `Host: ${new URL(k.urls.home).host}`,
        'Content-Type: application/json',
        ...headers,
      ],
      body,
    );
  const { guide, summarize, submit } = contract.actions;
  const key = 'Idempotency-Key: 9f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f';
  const { consent: _consent, ...withoutConsent } = submit.example_request;
  return [
    {
      id: 'example-guide',
      title: 'Guide',
      note: 'Non-binding guidance; no contact details, nothing stored.',
      request: request(guide.example_request),
      response: response(guide.example_response),
    },
    {
      id: 'example-summarize',
      title: 'Summarize',
      note: 'An overview for the person to review; nothing is stored or sent.',
      request: request(summarize.example_request),
      response: response(summarize.example_response),
    },
    {
      id: 'example-submit',
      title: 'Submit',
      note: 'Only after the person agreed to the consent text; one new key per request.',
      request: request(submit.example_request, [key]),
      response: response(submit.example_response),
    },
    {
      id: 'example-replay',
      title: 'Replay',
      note: 'A retry with the same key and body replays the stored reply instead of creating a second request.',
      request: request(submit.example_request, [key]),
      response: response(submit.example_response, ['Idempotent-Replayed: true']),
    },
    {
      id: 'example-problem',
      title: 'A problem',
      note: 'Errors are RFC 9457 problem details; field errors point at the field and never echo what was sent.',
      request: request(withoutConsent, [key]),
      // The function's own answer to a submit without consent, as its handler sends it.
      response: response(withProblemBase(consentRequired(), k.urls.agents)),
    },
  ];
}
