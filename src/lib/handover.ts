/**
 * What only the site's pages can compute (they alone read the content collection) travels to the
 * integration that writes them when `astro build` is done (src/integrations/build-outputs.ts): the function's
 * knowledge and every markdown twin. Astro prerenders the pages in the build's own process, so
 * they are handed over in memory, not through a page of the site.
 */
import type { Knowledge } from '../contract/knowledge.ts';

interface Handover {
  /** The proposal function's knowledge. */
  knowledge: Knowledge;
  /** Every markdown twin as `[file under the site root, text]`. */
  twins: [string, string][];
}

const SLOT = Symbol.for('kestrel-cloud.build-handover');
type Slot = { [SLOT]?: Partial<Handover> };

/** Called by the pages' code when it computes `what`. */
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
