import type { Config, Context } from '@netlify/functions';
import knowledge from '../../.generated/knowledge.json' with { type: 'json' };
import * as validators from '../../.generated/validators.mjs';
import { readEnv } from '../../src/contract/http.ts';
import { DOCUMENT_PATHS } from '../../src/contract/paths.ts';
import type { Knowledge } from '../../src/contract/knowledge.ts';
import { createIntake, type Invocation } from '../../src/proposal/actions/pipeline.ts';
import { hardened } from '../../src/proposal/doors/gates.ts';
import { createHttpDoor } from '../../src/proposal/doors/http.ts';
import { createMcpDoor, type McpSdk } from '../../src/proposal/doors/mcp.ts';

/** A computed specifier: the packager leaves the SDK a file of its own, loaded by the first MCP message only. */
const MCP_SDK = new URL('../../.generated/mcp-sdk.mjs', import.meta.url).href;
/** Netlify's limit of a synchronous function: no claim of this invocation outlives it. */
const LIMIT_MS = 60_000;

// netlify serve retries a 403 or 404 at `<path>.html`, `.htm`, `/index.html` and `/index.htm` (its CDN emulation,
// utils/proxy.js alternativePathsFor): each retry goes to the door of the path it retries.
const API_PATHS = new Set(
  ['', '.html', '.htm', '/index.html', '/index.htm'].map((s) => DOCUMENT_PATHS.proposalApi + s),
);
const toHttp = (path: string) => API_PATHS.has(path) || path.startsWith(`${DOCUMENT_PATHS.consentPages}/`);

// Built by the first invocation: the configuration is read once per instance.
let doors: Record<'http' | 'mcp', (inv: Invocation) => Promise<Response>> | undefined;

export default async (request: Request, context?: Context) => {
  const invocation: Invocation = {
    request,
    ip: context?.ip,
    waitUntil: typeof context?.waitUntil === 'function' ? (work) => context.waitUntil(work) : undefined,
    startedAt: performance.now(),
    limitMs: LIMIT_MS,
  };
  if (doors === undefined) {
    const intake = createIntake(knowledge as Knowledge, validators, readEnv);
    doors = {
      http: createHttpDoor(intake, knowledge as Knowledge),
      mcp: createMcpDoor(intake, () => import(MCP_SDK) as Promise<McpSdk>),
    };
  }
  // Anything but the API's paths is /mcp, whose retries must be refused alike.
  return hardened(await (toHttp(new URL(request.url).pathname) ? doors.http(invocation) : doors.mcp(invocation)));
};

export const config: Config = {
  // DOCUMENT_PATHS' API, MCP and confirmation pages, written out because Netlify reads them statically (a test keeps
  // them equal). GET /api/proposal is the contract file and GET /mcp the CDN's 405 (netlify.toml): no invocation.
  path: ['/api/proposal', '/mcp', '/confirm/*'],
  method: ['POST', 'OPTIONS', 'DELETE'],
  // Mirrored in the contract's limits.rate_limit (src/contract/contract.ts); a test keeps them equal.
  rateLimit: { windowLimit: 30, windowSize: 60, aggregateBy: ['ip', 'domain'] },
};
