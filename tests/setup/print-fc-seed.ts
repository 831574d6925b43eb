/** vitest globalSetup: names the run's fast-check seed once, so any run can be replayed. */
import { DEFAULT_FC_SEED, fcSeed } from '../helpers/fc-seed.ts';

const PRINTED = Symbol.for('fast-check seed printed');

export default function setup(): void {
  // Every project lists this setup; the seed is one per run, so it is said once.
  const flags = globalThis as { [PRINTED]?: boolean };
  if (flags[PRINTED]) return;
  flags[PRINTED] = true;
  const seed = fcSeed();
  const how = seed === DEFAULT_FC_SEED ? 'the fixed default; FC_SEED=<n> draws others' : 'from FC_SEED';
  console.log(`fast-check seed ${seed} (${how})`);
}
