/**
 * Guards the one-way import graph of README.md "Development": faces → capabilities →
 * catalog/skills → fsx/text → errors.ts. A module imports another only through its index.ts; the
 * faces import only src/index.ts. Every import counts: value, type-only (`import type`), re-export
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
// discovers, so it sits above it; index.ts (the library API) sits just below the faces.
const LAYER: Record<string, number> = {
  'errors.ts': 0,
  'version.ts': 0,
  text: 1,
  fsx: 1,
  skills: 2,
  catalog: 3,
  router: 4,
  cascade: 4,
  substrate: 4,
  enrich: 4,
  // lint ranks self-queries through the router, so it sits just above the capabilities.
  lint: 4.5,
  'index.ts': 5,
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
        // Faces use only the library API.
        if (from === 'cli' || from === 'mcp' || from === 'explorer') {
          expect(to, `${where}: faces import only src/index.ts`).toBe('index.ts');
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
