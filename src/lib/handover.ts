/**
 * What only the pages can compute (the function's knowledge, every markdown twin), handed in memory
 * to src/integrations/build-outputs.ts: Astro prerenders in the build's own process, but through
 * another module graph, hence a global slot.
 */
import type { Knowledge } from '../contract/knowledge.ts';

interface Handover {
  knowledge: Knowledge;
  /** `[file under the site root, text]` */
  twins: [string, string][];
}

const SLOT = Symbol.for('kestrel-cloud.build-handover');
type Slot = { [SLOT]?: Partial<Handover> };

export function handOver<K extends keyof Handover>(what: K, value: Handover[K]): void {
  const slot = ((globalThis as Slot)[SLOT] ??= {});
  slot[what] = value;
}

/** What this process's pages handed over; a build that computed none fails here. */
export function takeOver<K extends keyof Handover>(what: K): Handover[K] {
  const slot = (globalThis as Slot)[SLOT];
  const value = slot?.[what];
  if (value === undefined) throw new Error(`astro build: the pages handed over no ${what}`);
  delete slot![what];
  return value;
}
