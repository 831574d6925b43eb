/**
 * npm start's front server gives a static file netlify serve sent untyped (no extension, so
 * application/octet-stream) the Content-Type its path's header rules name, as Netlify does, and
 * leaves every other reply alone (scripts/serve/untyped-files.ts).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { headerTypes, typedHeaders, UNTYPED } from '../../scripts/serve/untyped-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'untyped-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'dist'));
writeFileSync(
  join(dir, 'netlify.toml'),
  [
    '[[headers]]',
    '  for = "/card"',
    '  [headers.values]',
    '    Content-Type = "application/mcp-server-card+json"',
  ].join('\n'),
);
writeFileSync(join(dir, 'dist', '_headers'), '/proof\n  Content-Type: text/plain; charset=utf-8\n');
const typeFor = await headerTypes(dir);
const untyped = (statusCode = 200) => ({ statusCode, headers: { 'content-type': UNTYPED, etag: 'W/"1"' } });

describe('a static file without an extension, under npm start', () => {
  it("gets the type netlify.toml or _headers gives its path, the reply's other headers kept", () => {
    expect(typedHeaders({ method: 'GET', url: '/card?x=1' }, untyped(), typeFor)).toEqual({
      'content-type': 'application/mcp-server-card+json',
      etag: 'W/"1"',
    });
    expect(typedHeaders({ method: 'HEAD', url: '/proof' }, untyped(304), typeFor)['content-type']).toBe(
      'text/plain; charset=utf-8',
    );
  });

  it("keeps netlify serve's type for a path no rule types, a function's reply, an error and a typed file", () => {
    expect(typedHeaders({ method: 'GET', url: '/other' }, untyped(), typeFor)['content-type']).toBe(UNTYPED);
    expect(typedHeaders({ method: 'POST', url: '/card' }, untyped(), typeFor)['content-type']).toBe(UNTYPED);
    expect(typedHeaders({ method: 'GET', url: '/card' }, untyped(404), typeFor)['content-type']).toBe(UNTYPED);
    const json = { statusCode: 200, headers: { 'content-type': 'application/json; charset=utf-8' } };
    expect(typedHeaders({ method: 'GET', url: '/card' }, json, typeFor)).toBe(json.headers);
  });
});
