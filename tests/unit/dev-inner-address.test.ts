import { describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { functionElsewhere } from '../../src/integrations/dev-preview.ts';

// `npm run dev`: Astro's own address serves pages only; a POST that reaches it is told where the function is.
describe("Astro's inner address under npm run dev", () => {
  it("answers a POST that reaches Astro's inner address with a problem naming the address to open", async () => {
    process.env['SITE_URL'] ??= 'http://localhost:8888';
    const server = createServer((_req, res) => functionElsewhere(res)).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/proposal`, {
        method: 'POST',
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      const body = (await res.json()) as { title: string; detail: string };
      expect(body.title).toBe('The proposal function does not answer at this address');
      expect(body.detail).toContain(`Open ${process.env['SITE_URL']}`);
    } finally {
      server.close();
    }
  });
});
