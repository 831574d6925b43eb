/**
 * The running invocation's agent identity: started once per POST as the request arrives, awaited
 * only where a submit stores a new request. Any door (the HTTP API, form posts, MCP) gets it
 * without passing it along, as client-network.ts does for the client's network.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AgentIdentity } from './model.ts';
import { verifyAgentIdentity, type AgentIdentityDeps } from './verify.ts';

const invocationIdentity = new AsyncLocalStorage<Promise<AgentIdentity>>();

/** Runs one invocation's `work` while its request's signature is verified beside it. */
export function withAgentIdentity<T>(request: Request, deps: AgentIdentityDeps, work: () => T): T {
  if (request.method !== 'POST') return work();
  return invocationIdentity.run(verifyAgentIdentity(request, deps), work);
}

/** The running invocation's agent identity; undefined outside one (the sweep, the inbox script, unit tests). */
export function invocationAgentIdentity(): Promise<AgentIdentity> | undefined {
  return invocationIdentity.getStore();
}
