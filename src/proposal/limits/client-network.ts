/**
 * The sending client's network as the per-client send limit needs it: a truncated HMAC under CLIENT_NETWORK_SECRET
 * (with a public salt anyone could hash all 2^32 IPv4 addresses and read one back). The address is never stored.
 */
import { createHmac } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import { IPV6_CLIENT_PREFIX_BITS } from '../../contract/send-limits.ts';

/** The eight groups of an IPv6 address, expanded; undefined if it is not one. */
function ipv6Groups(address: string): number[] | undefined {
  if (!isIPv6(address)) return undefined;
  const [head = '', tail] = address.split('::');
  const parse = (part: string) =>
    (part === '' ? [] : part.split(':')).flatMap((g) => {
      if (!g.includes('.')) return [parseInt(g, 16)];
      const [a = 0, b = 0, c = 0, d = 0] = g.split('.').map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** An IPv4 as it is; IPv6 by the prefix one subscriber can hold (any address in it is theirs); IPv4-mapped as IPv4. */
export function clientNetwork(ip: string | undefined): string | undefined {
  const address = (ip ?? '').trim();
  if (isIPv4(address)) return address;
  const g = ipv6Groups(address.replace(/%.*$/, ''));
  if (g === undefined) return undefined;
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff)
    return [g[6]! >> 8, g[6]! & 255, g[7]! >> 8, g[7]! & 255].join('.');
  return `${g
    .slice(0, IPV6_CLIENT_PREFIX_BITS / 16)
    .map((x) => x.toString(16))
    .join(':')}::/${IPV6_CLIENT_PREFIX_BITS}`;
}

/** 64 bits tell clients apart; the key is read by the send limit alone. */
export function clientNetworkKey(ip: string | undefined, secret: string): string | undefined {
  const network = clientNetwork(ip);
  if (network === undefined) return undefined;
  return createHmac('sha256', secret).update(`proposal-send-limit:${network}`).digest('hex').slice(0, 16);
}
