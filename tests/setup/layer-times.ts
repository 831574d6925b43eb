/**
 * A vitest reporter beside the default one: at the end of the run, how long each layer (project:
 * unit, built, e2e) took, wall-clock from its first file's start to its last file's end, with its
 * slowest files, so a slow test shows the day it lands. The global setups (the builds) run before
 * any file and are counted in the whole run only.
 */
import type { Reporter, TestModule } from 'vitest/node';

interface Layer {
  start: number;
  end: number;
  files: { name: string; ms: number }[];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export default class LayerTimes implements Reporter {
  private runStart = performance.now();
  private layers = new Map<string, Layer>();

  onTestRunStart(): void {
    this.runStart = performance.now();
    this.layers.clear();
  }

  onTestModuleStart(module: TestModule): void {
    const name = module.project.name;
    const now = performance.now();
    const layer = this.layers.get(name) ?? { start: now, end: now, files: [] };
    layer.start = Math.min(layer.start, now);
    this.layers.set(name, layer);
  }

  onTestModuleEnd(module: TestModule): void {
    const layer = this.layers.get(module.project.name);
    if (!layer) return;
    layer.end = Math.max(layer.end, performance.now());
    layer.files.push({ name: module.relativeModuleId, ms: module.diagnostic().duration });
  }

  onTestRunEnd(): void {
    if (this.layers.size === 0) return;
    const lines = ['', 'Time per layer (wall clock, first file start to last file end; slowest files):'];
    for (const [name, layer] of this.layers) {
      const slowest = [...layer.files]
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 3)
        .map((f) => `${f.name} ${seconds(f.ms)}`)
        .join(', ');
      lines.push(
        `  ${name.padEnd(6)} ${seconds(layer.end - layer.start).padStart(8)}  ${layer.files.length} files; ${slowest}`,
      );
    }
    lines.push(`  whole run ${seconds(performance.now() - this.runStart)}, global setups (builds) included`);
    console.log(lines.join('\n'));
  }
}
