/**
 * The TCP sockets a process tree listens on, read from the listeners themselves: the kernel's socket
 * tables (/proc/net/tcp and tcp6, the source `ss -ltnp` prints) matched to the processes' open
 * sockets (/proc/<pid>/fd). No tool to install, and nothing is sent anywhere.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface Listener {
  /** The local address: `127.0.0.1`, `::1`, `0.0.0.0`, `::`. */
  address: string;
  port: number;
  pid: number;
  command: string;
}

const read = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process ended while we read, or the file is not there
  }
};

/** `pid` and every process below it, from /proc (parent ids). */
export function processTree(pid: number): Set<number> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = read(`/proc/${entry}/stat`);
    // The command may hold spaces and parentheses: the fields after its closing parenthesis.
    if (stat !== undefined) parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  const tree = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [child, parent] of parents)
      if (tree.has(parent) && !tree.has(child)) {
        tree.add(child);
        grew = true;
      }
  }
  return tree;
}

/** The descriptors a process holds open; none once it has ended. */
function openFds(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/fd`);
  } catch {
    return [];
  }
}

/** The socket inodes each process holds open. */
function socketOwners(pids: Set<number>): Map<string, number> {
  const owners = new Map<string, number>();
  for (const pid of pids) {
    for (const fd of openFds(pid)) {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        if (inode !== undefined) owners.set(inode, pid);
      } catch {
        // closed while we read
      }
    }
  }
  return owners;
}

/** A /proc/net address: IPv4 as one little-endian word, IPv6 as four. */
function addressOf(hex: string): string {
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((word) => (word.match(/../g) ?? []).reverse().map((b) => parseInt(b, 16)));
  if (bytes.length === 4) return bytes.join('.');
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i]! << 8) | bytes[2 * i + 1]!).toString(16));
  // The URL parser writes an IPv6 address in its canonical, compressed form.
  return new URL(`http://[${groups.join(':')}]/`).hostname.replace(/^\[|\]$/g, '');
}

/** Every listening TCP socket of the processes in `pids`. */
export function listenersOf(pids: Set<number>): Listener[] {
  const owners = socketOwners(pids);
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
    (read(table) ?? '')
      .split('\n')
      .slice(1)
      .flatMap((line): Listener[] => {
        const fields = line.trim().split(/\s+/);
        const [, local, , state] = fields;
        const pid = owners.get(fields[9] ?? '');
        // 0A: TCP_LISTEN.
        if (local === undefined || state !== '0A' || pid === undefined) return [];
        const [hexAddress = '', hexPort = '0'] = local.split(':');
        const command = (read(`/proc/${pid}/comm`) ?? '').trim();
        return [{ address: addressOf(hexAddress), port: parseInt(hexPort, 16), pid, command }];
      }),
  );
}

/** Loopback only: 127.0.0.0/8 and ::1 (also as an IPv4-mapped IPv6 address). */
export const isLoopback = (address: string): boolean =>
  /^(::ffff:)?127\.\d+\.\d+\.\d+$/i.test(address) ||
  /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/i.test(address) ||
  address === '::1';
