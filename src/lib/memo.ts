/** `compute` run once per key object (a site model, say), its result kept as long as the key lives. */
export function oncePer<K extends object, T>(compute: (key: K) => T): (key: K) => T {
  const results = new WeakMap<K, T>();
  return (key) => {
    if (!results.has(key)) results.set(key, compute(key));
    return results.get(key) as T;
  };
}
