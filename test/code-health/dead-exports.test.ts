/**
 * No dead exports in the modules listed in CHECKED (issue 33: src/ smaller with every feature kept).
 * A module's barrel (src/<module>/index.ts) lists only names something outside the module uses: the
 * library API or the package-internal barrel (src/index.ts, src/internal.ts), another module, a
 * face, a test, a benchmark or a script. And no run-time function, class or constant exported from
 * a file of these modules is unused everywhere, its own file included. Uses are read as
 * identifiers in the source with comments left out, so a name only a comment mentions is unused.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const SRC = path.join(ROOT, 'src');

// The modules held to this. The hook, hosts and triggers are being rebuilt (issue 33 item 8); add
// them here when they settle.
const CHECKED = [
  'cascade',
  'catalog',
  'enrich',
  'explorer',
  'fsx',
  'http',
  'lint',
  'mcp',
  'router',
  'skills',
  'substrate',
  'supply',
  'text',
];

function files(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = path.join(dir, n);
      if (n === 'node_modules' || n.startsWith('.')) return [];
      return statSync(p).isDirectory() ? files(p) : /\.(ts|mjs|js)$/.test(n) ? [p] : [];
    });
}

/** The identifiers `text` holds outside comments and string literals' quotes. */
function identifiers(text: string): Set<string> {
  const bare = text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/\/\/.*$/gm, ' ');
  return new Set(bare.match(/[A-Za-z_$][\w$]*/g) ?? []);
}

/** The names an export declaration lists (`export { a, b as c } from …`: a and c). */
function listed(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  return sf.statements
    .filter(ts.isExportDeclaration)
    .flatMap((d) =>
      d.exportClause && ts.isNamedExports(d.exportClause)
        ? d.exportClause.elements.map((e) => e.name.text)
        : [],
    );
}

/** Run-time names a file declares with `export` (functions, classes, constants). */
function runtimeExports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  for (const st of sf.statements) {
    const exported = ts.canHaveModifiers(st)
      ? (ts.getModifiers(st) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (!exported) continue;
    if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name)
      out.push(st.name.text);
    else if (ts.isVariableStatement(st))
      for (const d of st.declarationList.declarations)
        if (ts.isIdentifier(d.name)) out.push(d.name.text);
  }
  return out;
}

describe('dead exports', () => {
  const all = ['src', 'test', 'bench', 'scripts', 'web'].flatMap((d) => files(path.join(ROOT, d)));
  const ids = new Map(all.map((f) => [f, identifiers(readFileSync(f, 'utf8'))]));
  const usedOutside = (name: string, dir: string, except: string): boolean =>
    all.some((f) => f !== except && !f.startsWith(dir + path.sep) && ids.get(f)!.has(name));

  for (const mod of CHECKED) {
    const dir = path.join(SRC, mod);
    const barrel = path.join(dir, 'index.ts');

    it(`src/${mod}/index.ts lists only names used outside src/${mod}`, () => {
      const unused = listed(barrel).filter((n) => !usedOutside(n, dir, barrel));
      expect(unused, 'drop them from the barrel').toEqual([]);
    });

    it(`src/${mod} exports no function or constant nothing uses`, () => {
      const dead = files(dir)
        .filter((f) => f !== barrel)
        .flatMap((f) => {
          const own = readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\//g, ' ');
          return runtimeExports(f)
            .filter((n) => (own.match(new RegExp(`\\b${n}\\b`, 'g')) ?? []).length <= 1)
            .filter((n) => !all.some((g) => g !== f && g !== barrel && ids.get(g)!.has(n)))
            .map((n) => `${path.relative(SRC, f)}: ${n}`);
        });
      expect(dead, 'unused anywhere: delete them').toEqual([]);
    });
  }
});
