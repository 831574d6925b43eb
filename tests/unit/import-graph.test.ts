import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The import graph of the project's own code, read from each file's import and export statements
// (relative specifiers only: packages are leaves). Astro files are read through their frontmatter and
// scripts. Each edge says whether it loads the module (a value import, an `export … from`, a dynamic
// `import()`) or only describes its data: `import type` and `export type` lines are erased before
// anything runs (verbatimModuleSyntax), so they load nothing and may point anywhere. The floors, the
// cycles and the site's reach are about what loads; `ts.preProcessFile` cannot tell the two apart,
// so the statements are parsed.
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

type Specifier = { name: string; typeOnly: boolean };

/** The module specifiers a script names, each marked type-only when its statement loads nothing. */
function specifiersOf(text: string, fileName = 'module.ts'): Specifier[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Specifier[] = [];
  const named = (node: ts.Expression | undefined, typeOnly: boolean) => {
    if (node !== undefined && ts.isStringLiteralLike(node)) found.push({ name: node.text, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) named(node.moduleSpecifier, node.importClause?.isTypeOnly === true);
    else if (ts.isExportDeclaration(node)) named(node.moduleSpecifier, node.isTypeOnly);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      named(node.moduleReference.expression, node.isTypeOnly);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      named(node.arguments[0], false);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) named(node.argument.literal, true);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** An Astro file's scripts: its frontmatter and every <script> body. */
function astroScripts(text: string): string {
  const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
  const scripts = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
  return [frontmatter, ...scripts].join('\n;\n');
}

type Edge = { to: string; typeOnly: boolean };

/** Every specifier a file names, packages included. */
function namedBy(file: string): Specifier[] {
  const text = readFileSync(join(root, file), 'utf8');
  return file.endsWith('.astro') ? specifiersOf(astroScripts(text)) : specifiersOf(text, file);
}

function importsOf(file: string): Edge[] {
  const specifiers = namedBy(file);
  const edges = new Map<string, Edge>();
  for (const { name, typeOnly } of specifiers) {
    if (!name.startsWith('.')) continue;
    const to = relative(root, resolve(root, dirname(file), name)).split('?')[0] ?? '';
    // One value import of a module makes the edge a value edge, whatever else names it.
    edges.set(to, { to, typeOnly: typeOnly && (edges.get(to)?.typeOnly ?? true) });
  }
  return [...edges.values()];
}

const graph = new Map(roots.flatMap(filesUnder).map((file) => [file, importsOf(file)]));

/** The modules a file loads: its value imports. */
const loads = (file: string) => (graph.get(file) ?? []).filter((e) => !e.typeOnly).map((e) => e.to);

function cycles(): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of loads(file)) {
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
 * Every file `starts` load through the project's own value imports, with the chain that reaches it
 * (breadth first, so the chain is a shortest one).
 */
function reachableFrom(starts: string[]): Map<string, string[]> {
  const chains = new Map(starts.map((file) => [file, [file]]));
  const queue = [...starts];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const next of loads(file)) {
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

const edges = [...graph].flatMap(([from, targets]) => targets.map(({ to, typeOnly }) => ({ from, to, typeOnly })));
const valueEdges = edges.filter((e) => !e.typeOnly);
const shown = ({ from, to }: { from: string; to: string }) => `${from} -> ${to}`;
const edgesFrom = (fromDir: string, toDir: string, among: typeof edges = edges) =>
  among.filter(({ from, to }) => from.startsWith(fromDir) && to.startsWith(toDir)).map(shown);

/**
 * The function as a floor plan, top to bottom: the two entries (the HTTP function and the scheduled
 * run); the doors (HTTP with its HTML replies, MCP, and the gates they share); the actions and their
 * pipeline; the person's consent (answers on the confirmation pages, MCP elicitation, grants,
 * sessions); the submit and the owed work it starts, one floor (a stored request and the steps it
 * owes know each other); what the work uses: mail and chat, the send limits, the agent-identity
 * verifier and the sensitive-data guard; the store, which owns its names and reads nothing above it;
 * the configuration and the log; and the rooms the site shares. A module loads from its own floor or
 * one below, never from above. `import type` lines load nothing and are not held to the plan.
 */
const FLOORS = [
  ['netlify/functions/'],
  ['src/proposal/doors/'],
  ['src/proposal/actions/'],
  ['src/proposal/consent/'],
  ['src/proposal/submit/', 'src/proposal/work/'],
  ['src/proposal/notify/', 'src/proposal/limits/', 'src/proposal/agent-identity/', 'src/proposal/guard/'],
  ['src/proposal/store/'],
  ['src/proposal/config.ts', 'src/proposal/log.ts'],
  ['src/contract/', 'src/text/', 'src/shared/'],
];
const DOORS = { http: 'src/proposal/doors/http.ts', mcp: 'src/proposal/doors/mcp.ts' };
/** What only one door uses lives beside it: the HTML replies with HTTP, the SDK's loader with MCP. */
const DOOR_ROOMS = {
  http: ['src/proposal/doors/http.ts', 'src/proposal/doors/html.ts'],
  mcp: ['src/proposal/doors/mcp.ts', 'src/proposal/doors/mcp-sdk.ts'],
};
const floorOf = (file: string) => FLOORS.findIndex((rooms) => rooms.some((room) => file.startsWith(room)));
const functionEdges = () => valueEdges.filter(({ from, to }) => floorOf(from) >= 0 && floorOf(to) >= 0);
/** What the site never loads: the submit, its owed work and the store (with their configuration and clients). */
const NOT_IN_SITE = ['src/proposal/submit/', 'src/proposal/work/', 'src/proposal/store/'];

describe('import graph', () => {
  it('reads the project source, and tells type-only imports from those that load', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(loads('src/proposal/doors/http.ts').length).toBeGreaterThan(3);
    expect(
      specifiersOf(
        [
          "import type { A } from './a.ts';",
          "import { type B } from './b.ts';",
          "import C, { type D } from './c.ts';",
          "export type { E } from './e.ts';",
          "export { F } from './f.ts';",
          "export * from './g.ts';",
          "import './h.ts';",
          "const i = await import('./i.ts');",
          "let j: import('./j.ts').J;",
        ].join('\n'),
      ),
    ).toEqual([
      { name: './a.ts', typeOnly: true },
      // Under verbatimModuleSyntax an import whose names are all types still loads its module.
      { name: './b.ts', typeOnly: false },
      { name: './c.ts', typeOnly: false },
      { name: './e.ts', typeOnly: true },
      { name: './f.ts', typeOnly: false },
      { name: './g.ts', typeOnly: false },
      { name: './h.ts', typeOnly: false },
      { name: './i.ts', typeOnly: false },
      { name: './j.ts', typeOnly: true },
    ]);
    // The tree has type-only arrows that point up, and the test reads them apart.
    expect(edges.some((e) => e.typeOnly && floorOf(e.to) >= 0 && floorOf(e.to) < floorOf(e.from))).toBe(true);
  });

  it('has no import cycle among the modules that load each other', () => {
    expect(cycles().map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  // The site publishes the function's contract, so lib may read the contract modules;
  // the function never reads the site (the test below keeps the submit and its store out of the site).
  it('lets arrows between the site (src/lib) and the function (src/proposal) run one way', () => {
    for (const site of ['src/lib/', 'src/pages/', 'src/components/', 'src/integrations/', 'src/client/']) {
      expect(edgesFrom('src/proposal/', site)).toEqual([]);
      expect(edgesFrom('netlify/', site)).toEqual([]);
    }
  });

  // Followed transitively: an indirect path (a page → a lib module → a door → submit/) pulls the
  // submit, its owed work and its store into the build as surely as a direct import.
  it('keeps the submit, its owed work and its store out of the site build, however indirectly', () => {
    const reached = [...reachableFrom(siteBuild)]
      .filter(([file]) => NOT_IN_SITE.some((room) => file.startsWith(room)))
      .map(([, chain]) => chain.join(' -> '));
    expect(reached).toEqual([]);
  });

  it('follows imports through intermediate files', () => {
    // The function's entry reaches the store only through the door, the pipeline and submit/.
    const chain = reachableFrom(['netlify/functions/proposal.mts']).get('src/proposal/store/blobs.ts');
    expect(chain?.length).toBeGreaterThan(2);
    expect(siteBuild).toContain('src/pages/[...path].astro');
  });

  // One storage module: every Blobs call is bounded and checked in one place.
  it('lets only src/proposal/store/blobs.ts import @netlify/blobs', () => {
    const importers = filesUnder('src').filter((file) =>
      namedBy(file).some((s) => s.name === '@netlify/blobs' || s.name.startsWith('@netlify/blobs/')),
    );
    expect(importers).toEqual(['src/proposal/store/blobs.ts']);
  });

  // Integrations read the site's code when the build is done; the site never reads an integration.
  it('lets arrows between the site and its integrations run one way', () => {
    for (const site of ['src/lib/', 'src/pages/', 'src/components/', 'src/layouts/', 'src/client/']) {
      expect(edgesFrom(site, 'src/integrations/')).toEqual([]);
    }
  });

  // The contract, the text helpers and the shared modules are what the site and the function share:
  // they load neither (a type-only import, e.g. of a reply's shape, loads nothing and may point anywhere).
  it('keeps the shared rooms (src/contract, src/text, src/shared) below the site and the function', () => {
    for (const shared of ['src/contract/', 'src/text/', 'src/shared/']) {
      for (const side of ['src/lib/', 'src/pages/', 'src/integrations/', 'src/client/', 'src/proposal/']) {
        expect(edgesFrom(shared, side, valueEdges)).toEqual([]);
      }
    }
    expect(edgesFrom('src/text/', 'src/contract/', valueEdges)).toEqual([]);
  });

  it('puts every module of the function on a floor of its plan', () => {
    expect(
      [...graph.keys()].filter(
        (file) => (file.startsWith('src/proposal/') || file.startsWith('netlify/functions/')) && floorOf(file) < 0,
      ),
    ).toEqual([]);
  });

  it('lets no module of the function load from a floor above its own', () => {
    const upward = functionEdges().filter(({ from, to }) => floorOf(to) < floorOf(from));
    expect(upward.map(shown)).toEqual([]);
  });

  // What both doors use is written once, beside or below them: neither door reads the other.
  it('keeps what both doors use beside or below them, and each door out of the other', () => {
    const [http, mcp] = [DOORS.http, DOORS.mcp].map((door) => new Set(loads(door)));
    const shared = [...http!].filter((file) => mcp!.has(file));
    expect(shared.length).toBeGreaterThan(3);
    expect(shared.filter((file) => [...DOOR_ROOMS.http, ...DOOR_ROOMS.mcp].includes(file))).toEqual([]);
    const into = (from: string[], to: string[]) =>
      edges.filter((e) => from.includes(e.from) && to.includes(e.to)).map(shown);
    expect(into(DOOR_ROOMS.http, DOOR_ROOMS.mcp)).toEqual([]);
    expect(into(DOOR_ROOMS.mcp, DOOR_ROOMS.http)).toEqual([]);
  });

  it('never imports tests from outside tests', () => {
    expect(edges.filter(({ to }) => to.startsWith('tests/')).map(shown)).toEqual([]);
  });
});
