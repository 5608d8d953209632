/**
 * Guards the one-way import graph of DESIGN.md §1: faces → capabilities → catalog/skills →
 * fsx/text → errors.ts. A module imports another only through its index.ts; the faces import
 * only src/index.ts. A failing case names the file and the import.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../src');

// Layer of each top-level module: a module may import only from strictly lower layers
// (or from itself). errors.ts is layer 0; the catalog stores what skills discovers, so it sits
// above it; index.ts (the library API) sits just below the faces.
const LAYER: Record<string, number> = {
  'errors.ts': 0,
  text: 1,
  fsx: 1,
  skills: 2,
  catalog: 3,
  router: 4,
  cascade: 4,
  substrate: 4,
  enrich: 4,
  'index.ts': 5,
  cli: 6,
  mcp: 6,
  explorer: 6,
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

function moduleOf(file: string): string {
  return path.relative(SRC, file).split(path.sep)[0]!;
}

const IMPORT_RE = /(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

describe('layering', () => {
  const all = files(SRC);
  it('knows every top-level module', () => {
    for (const f of all) expect(LAYER, `unknown module ${moduleOf(f)}`).toHaveProperty([moduleOf(f)]);
  });

  for (const file of all) {
    const from = moduleOf(file);
    it(`${path.relative(SRC, file)} imports only downward and through index.ts`, () => {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(IMPORT_RE)) {
        const spec = (m[1] ?? m[2])!;
        const target = path.resolve(path.dirname(file), spec);
        const to = moduleOf(target.replace(/\.js$/, '.ts'));
        if (to === from) continue;
        const where = `${path.relative(SRC, file)} imports ${spec}`;
        expect(LAYER[to], `${where}: unknown module`).toBeDefined();
        // The CLI's `mcp` and `serve` commands load the MCP and explorer faces lazily, through their index.ts only.
        if (from === 'cli' && (to === 'mcp' || to === 'explorer')) {
          expect(path.relative(path.join(SRC, to), target), `${where}: deep import`).toBe('index.js');
          expect(text.includes(`import('${spec}')`), `${where}: the ${to} face is loaded lazily`).toBe(true);
          continue;
        }
        // Faces use only the library API.
        if (from === 'cli' || from === 'mcp' || from === 'explorer') {
          expect(to, `${where}: faces import only src/index.ts`).toBe('index.ts');
          continue;
        }
        expect(LAYER[to]!, `${where}: upward or sideways import`).toBeLessThan(LAYER[from]!);
        // Deep imports are refused: another module only through its index.ts.
        if (to !== 'errors.ts' && to !== 'index.ts') {
          expect(path.relative(path.join(SRC, to), target), `${where}: deep import`).toBe('index.js');
        }
      }
    });
  }
});
