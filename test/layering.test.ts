/**
 * Guards the one-way import graph of docs/development.md: faces → capabilities →
 * catalog/skills → fsx/text → errors.ts. A module imports another only through its index.ts; the
 * MCP and explorer faces import only the package-internal barrel src/internal.ts (or the library API,
 * src/index.ts, a curated subset of it), the CLI also a module's barrel (see below). Every
 * import counts: value, type-only (`import type`), re-export
 * (`export … from`), side-effect (`import './x.js'`) and dynamic (`import('./x.js')`), read by
 * TypeScript's own pre-processor rather than a regular expression. No two files may import each
 * other, directly or around a longer loop, not even for types only. A failing case names the file
 * and the import, or the files of the cycle.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../src');

// Layer of each top-level module: a module may import only from strictly lower layers
// (or from itself). errors.ts and version.ts are layer 0; the catalog stores what skills
// discovers, so it sits above it; index.ts (the library API, a curated subset taken from the
// modules' barrels) sits below the faces, and internal.ts (the package-internal barrel: all of
// index.ts plus every capability's internal names) just above it.
const LAYER: Record<string, number> = {
  // The secret masker: imports nothing, and every SkilldexError masks through it.
  'secrets.ts': -1,
  'errors.ts': 0,
  'version.ts': 0,
  text: 1,
  fsx: 1,
  // The HTTP guard, token reading and binding shared by the two HTTP faces (reads token files
  // through fsx). Below both faces and outside the library API.
  http: 1.5,
  skills: 2,
  catalog: 3,
  // hosts: what the agent hosts show and record (listing budgets, transcripts); lint reuses its rules.
  hosts: 3.5,
  router: 4,
  cascade: 4,
  substrate: 4,
  enrich: 4,
  // lock, verify and diff read skills, their folders and the catalog's history.
  supply: 4,
  // lint ranks self-queries through the router, so it sits just above the capabilities.
  lint: 4.5,
  // trigger evaluations route through the router and reuse lint's SARIF writer and clauses.
  triggers: 4.6,
  // the prompt hook routes through the router and reads the hosts' listing state.
  hook: 4.7,
  'index.ts': 5,
  'internal.ts': 5.5,
  cli: 6,
  mcp: 6,
  explorer: 6,
};

// Cycles between files that are known and being removed (none today). An entry that no longer
// matches a cycle fails the test, so it cannot outlive its cycle.
const KNOWN_CYCLES: readonly (readonly string[])[] = [];

function files(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = path.join(dir, n);
      return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
    });
}

/** Every relative module specifier `text` imports, of any kind, in source order. */
export function relativeImports(text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles.map((f) => f.fileName).filter((s) => s.startsWith('.'));
}

/** The source file a relative specifier of `from` names (`./x.js` → `x.ts`). */
function resolveSpec(from: string, spec: string): string {
  return path.resolve(path.dirname(from), spec).replace(/\.js$/, '.ts');
}

function moduleOf(file: string): string {
  return path.relative(SRC, file).split(path.sep)[0]!;
}

/** The strongly connected components of more than one file (or a file importing itself). */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's algorithm; iterative order is fixed by the sorted keys, so the output is stable.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return out.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

describe('the import reader', () => {
  it('sees side-effect, type-only, re-export and dynamic imports', () => {
    const text = [
      "import '../catalog/db.js';",
      "import type { Db } from './db-type.js';",
      "import { type X, y } from './y.js';",
      "export * from './all.js';",
      "export type { T } from './t.js';",
      "const m = await import('../mcp/index.js');",
      "import { readFileSync } from 'node:fs';",
    ].join('\n');
    expect(relativeImports(text)).toEqual([
      '../catalog/db.js',
      './db-type.js',
      './y.js',
      './all.js',
      './t.js',
      '../mcp/index.js',
    ]);
  });

  it('finds cycles of any length, and only cycles', () => {
    const g = new Map<string, string[]>([
      ['a', ['b']],
      ['b', ['a']],
      ['c', ['d']],
      ['d', ['e']],
      ['e', ['c']],
      ['f', ['f']],
      ['g', ['a', 'c']],
    ]);
    expect(cycles(g)).toEqual([['a', 'b'], ['c', 'd', 'e'], ['f']]);
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toEqual([]);
  });
});

/** Relative specifiers `text` imports at run time without `import()`: `import type` is erased. */
export function staticRuntimeImports(text: string): string[] {
  const sf = ts.createSourceFile('x.ts', text, ts.ScriptTarget.ES2022, false);
  const out: string[] = [];
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && !st.importClause?.isTypeOnly) {
      out.push((st.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && !st.isTypeOnly) {
      out.push((st.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return out.filter((s) => s.startsWith('.'));
}

describe('start-up', () => {
  // What `skilldex --version`, `--help` and every command load before their action runs: the static
  // import closure of src/cli/main.ts. The capabilities (catalog, router, cascade, substrate, enrich,
  // lint, skills) and the MCP and explorer faces load inside the actions, with import(). Light
  // leaves are allowed: the policy table, the catalog's location parser (catalog/store/location.ts)
  // and the hook's light barrel (hook/lite.ts with the two files it re-exports).
  const LIGHT = new Set(['cli', 'secrets.ts', 'errors.ts', 'version.ts', 'text', 'fsx']);

  it('reads static imports only, type-only ones left out', () => {
    const text = [
      "import type { A } from '../a.js';",
      "import { type B, c } from './c.js';",
      "export type { D } from './d.js';",
      "export { e } from './e.js';",
      "const f = await import('./f.js');",
    ].join('\n');
    expect(staticRuntimeImports(text)).toEqual(['./c.js', './e.js']);
  });

  it('loads no capability and no other face', () => {
    const seen = new Set<string>();
    const todo = [path.join(SRC, 'cli', 'main.ts')];
    while (todo.length > 0) {
      const file = todo.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const spec of staticRuntimeImports(readFileSync(file, 'utf8')))
        todo.push(resolveSpec(file, spec));
    }
    const rel = [...seen].map((f) => path.relative(SRC, f).split(path.sep).join('/'));
    const heavy = rel.filter(
      (f) =>
        !LIGHT.has(moduleOf(path.join(SRC, f))) &&
        !f.startsWith('router/search/policies/') &&
        f !== 'catalog/store/location.ts' &&
        !['hook/lite.ts', 'hook/input.ts', 'hook/server-socket.ts'].includes(f),
    );
    expect(heavy, 'loaded at start-up').toEqual([]);
    expect(rel).toContain('cli/commands/search.ts');
  });
});

describe('layering', () => {
  const all = files(SRC);
  const graph = new Map<string, string[]>();
  for (const file of all) {
    graph.set(
      path.relative(SRC, file),
      relativeImports(readFileSync(file, 'utf8')).map((s) =>
        path.relative(SRC, resolveSpec(file, s)),
      ),
    );
  }

  it('has one HTTP guard below both servers (src/http), used by each', () => {
    const importers = [...graph.entries()]
      .filter(([, deps]) => deps.includes(path.join('http', 'index.ts')))
      .map(([f]) => moduleOf(path.join(SRC, f)));
    expect(new Set(importers)).toEqual(new Set(['cli', 'mcp', 'explorer']));
    // No face keeps a guard of its own.
    for (const f of all.filter((x) => ['mcp', 'explorer'].includes(moduleOf(x))))
      expect(readFileSync(f, 'utf8'), path.relative(SRC, f)).not.toMatch(
        /function (isLoopback|checkRequest|sameSecret|bearerOf)\b/,
      );
  });

  it('knows every top-level module', () => {
    for (const f of all)
      expect(LAYER, `unknown module ${moduleOf(f)}`).toHaveProperty([moduleOf(f)]);
  });

  it('has no import cycle between files, type-only ones included', () => {
    const found = cycles(graph).map((c) => c.join(' ↔ '));
    const known = KNOWN_CYCLES.map((c) => [...c].sort().join(' ↔ '));
    expect(
      found.filter((c) => !known.includes(c)),
      'import cycles',
    ).toEqual([]);
    expect(
      known.filter((c) => !found.includes(c)),
      'known cycles that are gone: delete them from KNOWN_CYCLES',
    ).toEqual([]);
  });

  for (const file of all) {
    const from = moduleOf(file);
    it(`${path.relative(SRC, file)} imports only downward and through index.ts`, () => {
      const text = readFileSync(file, 'utf8');
      for (const spec of relativeImports(text)) {
        const target = resolveSpec(file, spec);
        const to = moduleOf(target);
        const where = `${path.relative(SRC, file)} imports ${spec}`;
        expect(
          statSync(target, { throwIfNoEntry: false })?.isFile(),
          `${where}: no such file`,
        ).toBe(true);
        if (to === from) continue;
        expect(LAYER[to], `${where}: unknown module`).toBeDefined();
        // The CLI's `mcp` and `serve` commands load the MCP and explorer faces lazily, through their index.ts only.
        if (from === 'cli' && (to === 'mcp' || to === 'explorer')) {
          expect(path.relative(path.join(SRC, to), target), `${where}: deep import`).toBe(
            'index.ts',
          );
          expect(
            text.includes(`import('${spec}')`),
            `${where}: the ${to} face is loaded lazily`,
          ).toBe(true);
          continue;
        }
        // The CLI loads, per command, only the capability that command runs (issue #12: a one-shot
        // `skilldex search` must start near bare Node, and src/internal.ts loads every capability,
        // the MCP SDK's neighbours included). So besides the internal barrel (and the library API)
        // it may import a module's public barrel (src/<module>/index.ts, whose names
        // src/internal.ts re-exports), the leaf files
        // errors.ts and version.ts, and the router's policy table (src/router/search/policies/index.ts,
        // pure data quoted in `index --help`) and the catalog's location parser
        // (src/catalog/store/location.ts: is it a postgres:// URL, its password masked; node:fs only),
        // which config and rendering need before any catalog is opened, and the hook's light barrel
        // (src/hook/lite.ts: names, limits and paths; what the hook server's client loads on every
        // prompt, src/cli/hook-client.ts). Never another deep import. That start-up loads none of the
        // heavy barrels is checked below ('start-up').
        if (from === 'cli') {
          const rel = path.relative(SRC, target).split(path.sep).join('/');
          const allowed =
            rel === 'internal.ts' ||
            rel === 'index.ts' ||
            rel === 'errors.ts' ||
            rel === 'secrets.ts' ||
            rel === 'version.ts' ||
            rel === `${to}/index.ts` ||
            rel === 'router/search/policies/index.ts' ||
            rel === 'catalog/store/location.ts' ||
            rel === 'hook/lite.ts';
          expect(
            allowed,
            `${where}: the CLI imports only src/internal.ts, src/index.ts or a module's index.ts`,
          ).toBe(true);
          continue;
        }
        // The MCP and explorer faces use only the package-internal barrel (src/internal.ts, every
        // capability's names; src/index.ts, the library API, is a subset of it), and the HTTP guard
        // they share (src/http, through its index.ts), which is no part of either.
        if (from === 'mcp' || from === 'explorer') {
          const rel = path.relative(SRC, target).split(path.sep).join('/');
          expect(
            rel === 'internal.ts' || rel === 'index.ts' || rel === 'http/index.ts',
            `${where}: faces import only src/internal.ts, src/index.ts and src/http/index.ts`,
          ).toBe(true);
          continue;
        }
        expect(LAYER[to]!, `${where}: upward or sideways import`).toBeLessThan(LAYER[from]!);
        // Deep imports are refused: another module only through its index.ts (top-level files
        // such as errors.ts are modules of their own).
        if (!to.endsWith('.ts')) {
          expect(path.relative(path.join(SRC, to), target), `${where}: deep import`).toBe(
            'index.ts',
          );
        }
      }
    });
  }
});
