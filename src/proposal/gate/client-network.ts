/**
 * The sending client's network, reduced to what the per-client send limit needs: a key that is the
 * same for one client's requests and tells nothing else. The address itself is never stored.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { hash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import type { ActionPipeline } from '../actions/pipeline.ts';

/**
 * Hex digits kept of the SHA-256: 64 bits tell clients apart. A hash is not anonymous (anyone can
 * hash all 2^32 IPv4 addresses), so it only links one client's requests, is shown to nobody, and
 * is read by the send limit alone; the stored request keeps it for the sweep's later emails.
 */
const KEPT_HEX_DIGITS = 16;

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
 * The network a client sends from: an IPv4 address as it is, an IPv6 client by its /64 (one
 * subscriber's link: a client can pick any address in it), an IPv4-mapped IPv6 as its IPv4.
 */
export function clientNetwork(ip: string | undefined): string | undefined {
  const address = (ip ?? '').trim();
  if (isIPv4(address)) return address;
  const groups = ipv6Groups(address.replace(/%.*$/, ''));
  if (groups === undefined) return undefined;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The key the per-client limit counts under: a truncated, purpose-salted hash of the client's network. */
export function clientNetworkKey(ip: string | undefined): string | undefined {
  const network = clientNetwork(ip);
  return network === undefined ? undefined : hash('sha256', `proposal-send-limit:${network}`).slice(0, KEPT_HEX_DIGITS);
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
