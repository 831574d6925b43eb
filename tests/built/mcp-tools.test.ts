/**
 * The MCP tools are the contract's actions, from one source: called in-process through the
 * function's default export at /mcp, their schemas are read against dist/api/proposal.json.
 */
import { describe, expect, it } from 'vitest';
import handler from '../../netlify/functions/proposal.mts';
import { readDist } from '../../scripts/local-site/dist.ts';

const contract = JSON.parse(readDist('api/proposal.json'));
const MCP = 'https://kestrelcloud.example/mcp';

async function rpc(body: unknown, headers: Record<string, string> = {}) {
  const res = await handler(
    new Request(MCP, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    }),
  );
  return { status: res.status, body: res.status === 202 ? null : await res.json() };
}

describe('MCP tools from the contract', () => {
  it("each tool's input schema is its action's request schema without `action`; submit adds idempotency_key", async () => {
    const { body } = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const byName = Object.fromEntries(body.result.tools.map((t: { name: string }) => [t.name, t]));
    for (const [tool, action] of [
      ['request_guidance', 'guide'],
      ['review_proposal_request', 'summarize'],
      ['submit_proposal_request', 'submit'],
    ] as const) {
      const { properties, required, ...rest } = contract.actions[action].request_schema;
      const { action: _action, ...fields } = properties;
      const input = byName[tool].inputSchema;
      const { idempotency_key: key, ...inputFields } = input.properties;
      expect(inputFields, tool).toEqual(fields);
      expect(
        input.required.filter((r: string) => r !== 'idempotency_key'),
        tool,
      ).toEqual(required.filter((r: string) => r !== 'action'));
      expect({ ...input, properties: undefined, required: undefined }, tool).toEqual({
        ...rest,
        properties: undefined,
        required: undefined,
      });
      expect(key !== undefined, tool).toBe(action === 'submit');
    }
  });

  it('a notification gets 202 and no body; an unknown method -32601; an unknown tool -32602', async () => {
    expect((await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    expect((await rpc({ jsonrpc: '2.0', id: 2, method: 'resources/list' })).body.error.code).toBe(-32601);
    const unknown = await rpc({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope' } });
    expect(unknown.body.error.code).toBe(-32602);
  });

  it('refuses what is not JSON-RPC, not JSON, or not JSON content', async () => {
    expect((await rpc({ hello: 'world' })).body.error.code).toBe(-32600);
    const notJson = await handler(
      new Request(MCP, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' }),
    );
    expect(notJson.status).toBe(400);
    const form = await handler(
      new Request(MCP, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' }),
    );
    expect(form.status).toBe(415);
    const tooLarge = await rpc({ jsonrpc: '2.0', id: 4, method: 'ping', params: { pad: 'x'.repeat(40_000) } });
    expect(tooLarge.status).toBe(413);
  });

  it('guidance sent an idempotency_key is refused by the schema, as the HTTP API refuses extra fields', async () => {
    const { action: _a, ...args } = contract.actions.guide.example_request;
    const { body } = await rpc({
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'request_guidance', arguments: { ...args, idempotency_key: 'k-1' } },
    });
    expect(body.result.isError).toBe(true);
    expect(JSON.parse(body.result.content[0].text)).toMatchObject({ status: 422 });
  });
});
