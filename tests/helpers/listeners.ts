/**
 * The TCP sockets a process tree listens on, read from the listeners themselves (`ss -ltnp`), so a
 * test sees where `npm start` and `npm run dev` listen without sending anything anywhere.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface Listener {
  /** The local address as ss prints it: `127.0.0.1`, `::1`, `*`, `0.0.0.0`, `::`. */
  address: string;
  port: number;
  pid: number;
  command: string;
}

/** `pid` and every process below it, from /proc (parent ids). */
export function processTree(pid: number): Set<number> {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command may hold spaces and parentheses: the fields after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // The process ended while we read.
    }
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

/** Every listening TCP socket of the processes in `pids`. */
export function listenersOf(pids: Set<number>): Listener[] {
  const out = execFileSync('ss', ['-ltnpH'], { encoding: 'utf8' });
  return out.split('\n').flatMap((line): Listener[] => {
    const columns = line.trim().split(/\s+/);
    const local = columns[3];
    if (local === undefined) return [];
    const split = local.lastIndexOf(':');
    const address = local
      .slice(0, split)
      .replace(/^\[|\]$/g, '')
      .replace(/%.*$/, '');
    const port = Number(local.slice(split + 1));
    return [...line.matchAll(/\("([^"]*)",pid=(\d+),/g)]
      .map(([, command = '', pid]) => ({ address, port, pid: Number(pid), command }))
      .filter((listener) => pids.has(listener.pid));
  });
}

/** Loopback only: 127.0.0.0/8 and ::1 (also as an IPv4-mapped IPv6 address). */
export const isLoopback = (address: string): boolean =>
  /^(::ffff:)?127\.\d+\.\d+\.\d+$/i.test(address) || address === '::1';
