/**
 * The one seed of every property test (fast-check) in a run: FC_SEED when set, else a fixed one,
 * so a run is repeatable and a failure seen once is seen again. A failing property prints its seed
 * and path; `FC_SEED=<seed> npx vitest run <file>` replays it. Change the default to explore.
 */
export const DEFAULT_FC_SEED = 20_261_127;

export function fcSeed(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env['FC_SEED'];
  if (raw === undefined || raw === '') return DEFAULT_FC_SEED;
  const seed = Number(raw);
  if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be an integer, not "${raw}"`);
  return seed;
}
