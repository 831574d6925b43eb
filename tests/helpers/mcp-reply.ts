/**
 * The JSON-RPC message of a /mcp reply: a JSON body (2026-07-28, and every refusal), or the last
 * message of the event stream the SDK's stateless path answers a 2025-era request with.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON-RPC message of any shape
export async function rpcMessage(res: Response): Promise<any> {
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) return JSON.parse(text);
  const data = text.split('\n').filter((line) => line.startsWith('data:'));
  return JSON.parse(data.at(-1)!.slice('data:'.length));
}
