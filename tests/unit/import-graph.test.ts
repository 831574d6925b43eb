import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The import graph of the project's own code, read from each file's import specifiers (relative
// ones only: packages are leaves). Astro files are read through their frontmatter and scripts.
const root = resolve(import.meta.dirname, '../..');
const roots = ['src', 'scripts', 'netlify', 'astro.config.mjs'];
const sourceFile = /\.(ts|mts|mjs|astro)$/;

function filesUnder(path: string): string[] {
  const full = join(root, path);
  if (sourceFile.test(path)) return [path];
  return readdirSync(full, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() || sourceFile.test(entry.name) ? filesUnder(join(path, entry.name)) : [],
  );
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
  // preProcessFile does not see imports in .astro frontmatter and <script> bodies reliably.
  if (file.endsWith('.astro')) {
    for (const m of text.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\s+['"]([^'"]+)['"]/g)) {
      specifiers.push(m[1] ?? m[2] ?? '');
    }
  }
  return [
    ...new Set(
      specifiers
        .filter((s) => s.startsWith('.'))
        .map((s) => relative(root, resolve(root, dirname(file), s)).split('?')[0] ?? ''),
    ),
  ];
}

const graph = new Map(roots.flatMap(filesUnder).map((file) => [file, importsOf(file)]));

function cycles(): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') found.push(stack.slice(stack.indexOf(next)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

/**
 * Every file reachable from `starts` through the project's own imports, with the chain that
 * reaches it (breadth first, so the chain is a shortest one).
 */
function reachableFrom(starts: string[]): Map<string, string[]> {
  const chains = new Map(starts.map((file) => [file, [file]]));
  const queue = [...starts];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const next of graph.get(file) ?? []) {
      if (chains.has(next)) continue;
      chains.set(next, [...(chains.get(file) ?? []), next]);
      queue.push(next);
    }
  }
  return chains;
}

/** The site build: Astro's config (with its integrations), pages, components, layouts, lib, browser code. */
const siteBuild = [...graph.keys()].filter(
  (file) =>
    file === 'astro.config.mjs' ||
    file === 'src/content.config.ts' ||
    ['src/pages/', 'src/lib/', 'src/components/', 'src/layouts/', 'src/client/', 'src/integrations/'].some((dir) =>
      file.startsWith(dir),
    ),
);

const edges = [...graph].flatMap(([from, targets]) => targets.map((to) => ({ from, to })));
const edgesFrom = (fromDir: string, toDir: string) =>
  edges
    .filter(({ from, to }) => from.startsWith(fromDir) && to.startsWith(toDir))
    .map(({ from, to }) => `${from} -> ${to}`);

/**
 * The function as a floor plan, top to bottom: the entry, the two doors, what both doors check, the
 * actions and their pipeline, the person's consent answers (the confirmation page's actions, MCP elicitation), the sensitive-data guard, the submit wing with its store, the agent-identity
 * verifier (the entry starts it, the submit wing records its result), and the
 * rooms the site shares. A module imports from its own floor or one below, never from above.
 */
const FLOORS = [
  ['netlify/functions/'],
  ['src/proposal/http/', 'src/proposal/mcp/'],
  ['src/proposal/gate/'],
  ['src/proposal/actions/'],
  ['src/proposal/consent/'],
  ['src/proposal/guard/'],
  ['src/proposal/submit/'],
  // The store owns its names: nothing in it reads the submit wing above it.
  ['src/proposal/store/'],
  ['src/proposal/agent-identity/'],
  ['src/contract/', 'src/text/', 'src/shared/'],
];
const DOORS = ['src/proposal/http/', 'src/proposal/mcp/'];
const floorOf = (file: string) => FLOORS.findIndex((rooms) => rooms.some((room) => file.startsWith(room)));
const functionEdges = () => edges.filter(({ from, to }) => floorOf(from) >= 0 && floorOf(to) >= 0);

describe('import graph', () => {
  it('reads the project source', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('src/proposal/http/handler.ts')?.length).toBeGreaterThan(3);
  });

  it('has no import cycle', () => {
    expect(cycles()).toEqual([]);
  });

  // The site publishes the function's contract, so lib may read proposal's contract modules;
  // the function never reads the site (the test below keeps the pipeline out of the site).
  it('lets arrows between the site (src/lib) and the function (src/proposal) run one way', () => {
    for (const site of ['src/lib/', 'src/pages/', 'src/components/', 'src/integrations/', 'src/client/']) {
      expect(edgesFrom('src/proposal/', site)).toEqual([]);
      expect(edgesFrom('netlify/', site)).toEqual([]);
    }
  });

  // Followed transitively: an indirect path (a page → a lib module → the handler → submit/) pulls
  // the pipeline, its store and its configuration into the build as surely as a direct import.
  it('keeps the submit pipeline and its store out of the site build, however indirectly', () => {
    const reached = [...reachableFrom(siteBuild)]
      .filter(([file]) => file.startsWith('src/proposal/submit/') || file.startsWith('src/proposal/store/'))
      .map(([, chain]) => chain.join(' -> '));
    expect(reached).toEqual([]);
  });

  it('follows imports through intermediate files', () => {
    // The function's entry reaches the store only through the handler, the pipeline and submit/.
    const chain = reachableFrom(['netlify/functions/proposal.mts']).get('src/proposal/store/blobs.ts');
    expect(chain?.length).toBeGreaterThan(2);
    expect(siteBuild).toContain('src/pages/[...path].astro');
  });

  // One storage module: every Blobs call is bounded and checked in one place.
  it('lets only src/proposal/store/blobs.ts import @netlify/blobs', () => {
    const importers = filesUnder('src').filter((file) =>
      ts
        .preProcessFile(readFileSync(join(root, file), 'utf8'), true, true)
        .importedFiles.some((f) => f.fileName === '@netlify/blobs' || f.fileName.startsWith('@netlify/blobs/')),
    );
    expect(importers).toEqual(['src/proposal/store/blobs.ts']);
  });

  // Integrations read the site's code when the build is done; the site never reads an integration.
  it('lets arrows between the site and its integrations run one way', () => {
    for (const site of ['src/lib/', 'src/pages/', 'src/components/', 'src/layouts/', 'src/client/']) {
      expect(edgesFrom(site, 'src/integrations/')).toEqual([]);
    }
  });

  // The contract, the text helpers and the detectors the page shares are what the site and the
  // function share: they import neither.
  it('keeps the shared rooms (src/contract, src/text, src/shared) below the site and the function', () => {
    for (const shared of ['src/contract/', 'src/text/', 'src/shared/']) {
      for (const side of ['src/lib/', 'src/pages/', 'src/integrations/', 'src/client/', 'src/proposal/']) {
        expect(edgesFrom(shared, side)).toEqual([]);
      }
    }
    expect(edgesFrom('src/text/', 'src/contract/')).toEqual([]);
  });

  it('puts every module of the function on a floor of its plan', () => {
    expect([...graph.keys()].filter((file) => file.startsWith('src/proposal/') && floorOf(file) < 0)).toEqual([]);
  });

  it('lets no module of the function import from a floor above its own', () => {
    const upward = functionEdges().filter(({ from, to }) => floorOf(to) < floorOf(from));
    expect(upward.map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });

  // What both doors use is written once, below them: neither door reads the other.
  it('keeps what both doors use below them, and each door out of the other', () => {
    const [http, mcp] = DOORS.map(
      (door) => new Set(edges.filter(({ from }) => from.startsWith(door)).map(({ to }) => to)),
    );
    const shared = [...http!].filter((file) => mcp!.has(file));
    expect(shared.length).toBeGreaterThan(3);
    expect(shared.filter((file) => floorOf(file) <= floorOf(DOORS[0]!))).toEqual([]);
    expect(edgesFrom(DOORS[0]!, DOORS[1]!)).toEqual([]);
    expect(edgesFrom(DOORS[1]!, DOORS[0]!)).toEqual([]);
  });

  it('never imports tests from outside tests', () => {
    expect(edges.filter(({ to }) => to.startsWith('tests/')).map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });
});
