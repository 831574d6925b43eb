/**
 * The function's doors in-process, built as netlify/functions/proposal.mts builds them, from an
 * environment and intake overrides of the test's own (a store, clocks): the configuration is read
 * once, when the doors are made, as on a deployed instance. Each call is one invocation.
 */
import knowledgeJson from '../../.generated/knowledge.json' with { type: 'json' };
import * as validators from '../../.generated/validators.mjs';
import { readEnv } from '../../src/contract/http.ts';
import type { Knowledge } from '../../src/contract/knowledge.ts';
import type { EnvReader } from '../../src/proposal/config.ts';
import { createIntake, workContext, type Intake, type Invocation } from '../../src/proposal/actions/pipeline.ts';
import { hardened } from '../../src/proposal/doors/gates.ts';
import { createHttpDoor } from '../../src/proposal/doors/http.ts';
import { createMcpDoor, type McpSdk } from '../../src/proposal/doors/mcp.ts';
import { runScheduled } from '../../src/proposal/work/scheduled.ts';

export const knowledge = knowledgeJson as Knowledge;
/** The bundled SDK the entry imports on the first MCP message. */
export const loadMcpSdk = () =>
  import(new URL('../../.generated/mcp-sdk.mjs', import.meta.url).href) as Promise<McpSdk>;

/** What the platform passes besides the request. */
export type Platform = { ip?: string; waitUntil?: (work: Promise<unknown>) => void; limitMs?: number };

export interface Doors {
  intake: Intake;
  http: (request: Request, platform?: Platform) => Promise<Response>;
  mcp: (request: Request, platform?: Platform) => Promise<Response>;
  /** One scheduled invocation (netlify/functions/owed-work.mts) on the intake's clocks. */
  scheduled: (options?: { ignoreBackoff?: boolean; limitMs?: number }) => ReturnType<typeof runScheduled>;
}

/** `env`: the variables (default: the process's, read now); `overrides`: the intake's parts a test replaces. */
export function functionDoors(overrides: Partial<Intake> = {}, env: EnvReader = readEnv): Doors {
  const intake = createIntake(knowledge, validators, env, overrides);
  const http = createHttpDoor(intake, knowledge);
  const mcp = createMcpDoor(intake, loadMcpSdk);
  const invocation = (request: Request, platform: Platform = {}): Invocation => ({
    request,
    ip: platform.ip,
    waitUntil: platform.waitUntil,
    startedAt: intake.mono(),
    limitMs: platform.limitMs ?? 60_000,
  });
  return {
    intake,
    http: async (request, platform) => hardened(await http(invocation(request, platform))),
    mcp: async (request, platform) => hardened(await mcp(invocation(request, platform))),
    scheduled: ({ ignoreBackoff, limitMs = 30_000 } = {}) =>
      runScheduled(workContext(intake, { startedAt: intake.mono(), limitMs }), { ignoreBackoff }),
  };
}

/** A waitUntil that keeps what it is given, for the test to await. */
export function afterReply() {
  const later: Promise<unknown>[] = [];
  return { later, waitUntil: (work: Promise<unknown>) => void later.push(work), settle: () => Promise.all(later) };
}
