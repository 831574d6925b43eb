/**
 * The shipped function (netlify/functions/proposal.mts, and owed-work.mts for the schedule) called
 * in-process, as a deploy runs it: configured by the environment the test sets before its first
 * request (each instance reads it once), its store a real local Blobs server, the CRM, SMTP and chat
 * stand-ins on loopback. Each `instance()` is a fresh module load, so a test file can hold two
 * configurations. `waitUntil` work is kept: `settle()` awaits what the replies left running.
 */
import { getStore } from '@netlify/blobs';
import type { Context } from '@netlify/functions';
import { vi } from 'vitest';
import { PROPOSALS_STORE } from '../../src/proposal/store/blobs.ts';
import type { ProposalRecord } from '../../src/proposal/submit/record.ts';

export interface ShippedFunction {
  /** One invocation of POST /api/proposal, /mcp or a confirmation page. */
  handle(request: Request, platform?: { ip?: string }): Promise<Response>;
  /** A fetch for the MCP SDK clients' `fetch` option: every call is one invocation. */
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
  /** One scheduled run of owed work (netlify/functions/owed-work.mts). */
  scheduled(): Promise<void>;
  /** Awaits what the replies so far left to do after them (waitUntil). */
  settle(): Promise<void>;
}

/** The production address the tests' requests go to: a host the function answers on. */
export const SITE = 'https://kestrelcloud.example';

/** Sets `env` (kept until `restore`) and loads a fresh instance of each function. */
export async function shippedFunction(env: Record<string, string>): Promise<ShippedFunction> {
  Object.assign(process.env, env);
  vi.resetModules();
  const http = (await import('../../netlify/functions/proposal.mts')).default;
  const owed = (await import('../../netlify/functions/owed-work.mts')).default;
  let later: Promise<unknown>[] = [];
  const handle = (request: Request, platform: { ip?: string } = {}) =>
    http(request, {
      ip: platform.ip ?? '203.0.113.10',
      waitUntil: (work: Promise<unknown>) => void later.push(work),
    } as unknown as Context);
  return {
    handle,
    fetch: (url, init) => handle(new Request(url, init)),
    scheduled: () => owed(),
    settle: async () => {
      while (later.length > 0) {
        const now = later;
        later = [];
        await Promise.allSettled(now);
      }
    },
  };
}

/** Removes what `shippedFunction` set. */
export function restoreEnv(env: Record<string, string>): void {
  for (const name of Object.keys(env)) delete process.env[name];
}

/** Every stored request, read from the store the function writes (the test's Blobs server). */
export async function storedRecords(): Promise<ProposalRecord[]> {
  const store = getStore({ name: PROPOSALS_STORE, consistency: 'strong' });
  const { blobs } = await store.list({ prefix: 'requests/' });
  const read = await Promise.all(
    blobs.map(({ key }) => store.get(key, { type: 'json' }) as Promise<ProposalRecord | null>),
  );
  // One erased between the list and its read is no longer stored.
  return read.filter((r): r is ProposalRecord => r !== null);
}

/** A JSON POST to /api/proposal. */
export const apiPost = (body: unknown, headers: Record<string, string> = {}) =>
  new Request(`${SITE}/api/proposal`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
