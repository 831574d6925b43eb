/**
 * The sending client's network, reduced to what the per-client send limit needs: a key that is the
 * same for one client's requests and tells nothing else. The address itself is never stored.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { IPV6_CLIENT_PREFIX_BITS } from '../../contract/send-limits.ts';
import { readEnv } from '../../contract/http.ts';
import type { ActionPipeline } from '../actions/pipeline.ts';
import { logEvent } from '../submit/log.ts';

/**
 * Hex digits kept of the HMAC-SHA256: 64 bits tell clients apart. It only links one client's
 * requests, is shown to nobody, and is read by the send limit alone; the stored request keeps it for
 * the sweep's later emails.
 */
const KEPT_HEX_DIGITS = 16;

/**
 * The deployment's secret the network key is made with. Keyed, a leaked record or counter name says
 * nothing of the address: with a public salt anyone could hash all 2^32 IPv4 addresses (under two
 * core-hours) and read the address back.
 */
export const NETWORK_SECRET_VARIABLE = 'CLIENT_NETWORK_SECRET';
/** 32 characters: `openssl rand -base64 32` gives 44; anything shorter is guessable or a placeholder. */
export const NETWORK_SECRET_MIN_LENGTH = 32;
/**
 * Used when the secret is unset or too short, so the limits keep counting exactly across instances
 * and no request fails; it is public, so such keys are reversible as an unkeyed hash is. On a deployed
 * site that is a misconfiguration, logged once per instance; under npm start it is the default.
 */
const PUBLIC_FALLBACK_SECRET = 'proposal-send-limit';

/** The secret in force, and what is wrong with the configured one: 'missing' or 'too_short' (the public fallback applies). */
export function networkSecretFromEnv(read: (name: string) => string | undefined): {
  secret: string;
  problem?: 'missing' | 'too_short';
} {
  const configured = read(NETWORK_SECRET_VARIABLE)?.trim() ?? '';
  if (configured.length >= NETWORK_SECRET_MIN_LENGTH) return { secret: configured };
  return { secret: PUBLIC_FALLBACK_SECRET, problem: configured === '' ? 'missing' : 'too_short' };
}

/**
 * Whether the site runs deployed, by Netlify's URL of the site at run time: unset in tests and a
 * loopback address under npm start, where the public fallback is expected and nothing is logged.
 */
function runsDeployed(read: (name: string) => string | undefined): boolean {
  try {
    const { hostname } = new URL(read('URL') ?? '');
    return !['localhost', '127.0.0.1', '[::1]'].includes(hostname);
  } catch {
    return false;
  }
}

let instanceSecret: string | undefined;
/** Read once per instance; a deployed site without a usable secret logs so once per instance, never failing a request. */
function deploymentSecret(): string {
  if (instanceSecret !== undefined) return instanceSecret;
  const { secret, problem } = networkSecretFromEnv(readEnv);
  if (problem !== undefined && runsDeployed(readEnv)) {
    logEvent(problem === 'missing' ? 'config_missing' : 'config_invalid', {
      variable: NETWORK_SECRET_VARIABLE,
      reason: `must be at least ${NETWORK_SECRET_MIN_LENGTH} characters; a public key applies until it is set`,
    });
  }
  instanceSecret = secret;
  return secret;
}

/** The eight groups of an IPv6 address, expanded; undefined if it is not one. */
function ipv6Groups(address: string): number[] | undefined {
  if (!isIPv6(address)) return undefined;
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const parse = (part: string[]) => part.flatMap((g) => (g.includes('.') ? dotted(g) : [parseInt(g, 16)]));
  const dotted = (v4: string) => {
    const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
    return [(a << 8) | b, (c << 8) | d];
  };
  const left = parse(groups(head));
  const right = tail === undefined ? [] : parse(groups(tail));
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The network a client sends from: an IPv4 address as it is, an IPv6 client by the prefix one
 * subscriber can hold (IPV6_CLIENT_PREFIX_BITS: a client can pick any address in it), an
 * IPv4-mapped IPv6 as its IPv4.
 */
export function clientNetwork(ip: string | undefined): string | undefined {
  const address = (ip ?? '').trim();
  if (isIPv4(address)) return address;
  const groups = ipv6Groups(address.replace(/%.*$/, ''));
  if (groups === undefined) return undefined;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  return `${groups
    .slice(0, IPV6_CLIENT_PREFIX_BITS / 16)
    .map((g) => g.toString(16))
    .join(':')}::/${IPV6_CLIENT_PREFIX_BITS}`;
}

/**
 * The key the per-client limit counts under: a truncated HMAC of the client's network, keyed with the
 * deployment's secret (CLIENT_NETWORK_SECRET; `secret` for tests).
 */
export function clientNetworkKey(ip: string | undefined, secret: string = deploymentSecret()): string | undefined {
  const network = clientNetwork(ip);
  if (network === undefined) return undefined;
  return createHmac('sha256', secret).update(`proposal-send-limit:${network}`).digest('hex').slice(0, KEPT_HEX_DIGITS);
}

/** The network key of the client whose invocation is running (asClient), for doors that build their own source. */
const invocationNetwork = new AsyncLocalStorage<string | undefined>();

/** Runs one invocation's `work` as the client at `ip`: pipelines made by pipelineForClient see its key. */
export function asClient<T>(ip: string | undefined, work: () => T): T {
  return invocationNetwork.run(clientNetworkKey(ip), work);
}

/**
 * The pipeline as seen by the running invocation's client (asClient): each request it runs carries
 * the client's network key in its source. For a door that is built once and builds the source
 * itself (the MCP server), so its requests meet the per-client send limit as the HTTP API's do.
 */
export function pipelineForClient(pipeline: ActionPipeline): ActionPipeline {
  return {
    run: (request) => {
      const network = invocationNetwork.getStore();
      return pipeline.run(network === undefined ? request : { ...request, source: { ...request.source, network } });
    },
    scheduleSweep: (context) => pipeline.scheduleSweep(context),
  };
}
