/**
 * The library API (src/index.ts, what `import … from 'skilldex'` gives) is deliberate (issue 33
 * item 6): at most 100 run-time exports taken from the modules' barrels, all re-exported whole by
 * the package-internal barrel (src/internal.ts), every export statement under a doc comment, none of
 * the internals that left it in this release reachable from it. package.json exports only
 * dist/index.js, so src/internal.ts stays inside the package.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import * as internal from '../src/internal.js';
import type {
  BodyDiff,
  DiffSide,
  FieldChange,
  FileChange,
  GenerationDiffReport,
  GenerationMember,
  LockFormat,
  LockOptions,
  LockReport,
  LockedSkill,
  ParsedLock,
  SkillDiffOptions,
  SkillDiffReport,
  SkillsLock,
  VerifyCode,
  VerifyFileChange,
  VerifyFinding,
  VerifyOptions,
  VerifyReport,
} from '../src/index.js';

// The supply chain's types, as a caller of the API names them (tsc checks this file: a type the
// API stopped giving fails the type check).
export type SupplyTypes = [
  BodyDiff,
  DiffSide,
  FieldChange,
  FileChange,
  GenerationDiffReport,
  GenerationMember,
  LockFormat,
  LockOptions,
  LockReport,
  LockedSkill,
  ParsedLock,
  SkillDiffOptions,
  SkillDiffReport,
  SkillsLock,
  VerifyCode,
  VerifyFileChange,
  VerifyFinding,
  VerifyOptions,
  VerifyReport,
];

const ROOT = path.resolve(__dirname, '..');
const MAX_RUNTIME_EXPORTS = 100;

describe('the library API', () => {
  it(`has at most ${MAX_RUNTIME_EXPORTS} run-time exports, each the internal barrel's own`, () => {
    const names = Object.keys(api);
    expect(names.length).toBeLessThanOrEqual(MAX_RUNTIME_EXPORTS);
    const all = internal as Record<string, unknown>;
    for (const n of names)
      expect(all[n], `${n} is not the internal barrel's`).toBe((api as Record<string, unknown>)[n]);
  });

  it('leaves the analysers, policy tables and helpers internal', () => {
    for (const n of [
      'V1',
      'BM25F_V4',
      'POLICIES',
      'RETIRED_POLICIES',
      'analyzeQuery',
      'queryTokens',
      'codedFromForeign',
      'sanitizeField',
      'jsonText',
      'readTextCapped',
      'maskSecrets',
    ]) {
      expect(n in internal, `${n} is still internal`).toBe(true);
      expect(n in api, `${n} left the API`).toBe(false);
    }
  });

  it('holds no name of the retired policies v2 and v3 (issue 33 item 2), inside or out', () => {
    for (const n of [
      'V2',
      'V3',
      'V4',
      'POLICY_V2_ID',
      'POLICY_V3_ID',
      'HYBRID_LEXICAL_V2',
      'BM25F_V3',
      'scoreV2',
      'scoreV3',
      'scoreV4',
      'analyzeQueryV4',
    ]) {
      expect(n in internal, `${n} is gone`).toBe(false);
      expect(n in api, `${n} is gone`).toBe(false);
    }
  });

  it('documents every export statement and re-exports from module barrels only', () => {
    const file = path.join(ROOT, 'src', 'index.ts');
    const text = readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
    for (const st of sf.statements) {
      expect(ts.isExportDeclaration(st), 'only export … from statements').toBe(true);
      const decl = st as ts.ExportDeclaration;
      // From a module's barrel or a top-level leaf (errors.ts, version.ts), never from
      // src/internal.ts, which re-exports this file (`export *`).
      expect((decl.moduleSpecifier as ts.StringLiteral).text).toMatch(
        /^\.\/(errors|version|\w+\/index)\.js$/,
      );
      const docs = ts.getLeadingCommentRanges(text, st.getFullStart()) ?? [];
      const doc = docs.map((r) => text.slice(r.pos, r.end)).find((c) => c.startsWith('/**'));
      expect(doc, `undocumented: ${st.getText().slice(0, 60)}`).toBeDefined();
    }
  });

  it('is re-exported whole by src/internal.ts, which names none of it again', () => {
    const file = path.join(ROOT, 'src', 'internal.ts');
    const text = readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
    const named: string[] = [];
    let whole = false;
    for (const st of sf.statements) {
      if (!ts.isExportDeclaration(st)) continue;
      const spec = (st.moduleSpecifier as ts.StringLiteral).text;
      if (st.exportClause === undefined) whole ||= spec === './index.js';
      else if (ts.isNamedExports(st.exportClause))
        named.push(...st.exportClause.elements.map((e) => e.name.text));
    }
    expect(whole, "src/internal.ts has export * from './index.js'").toBe(true);
    const apiNames = new Set(
      ts
        .createSourceFile(
          'index.ts',
          readFileSync(path.join(ROOT, 'src', 'index.ts'), 'utf8'),
          ts.ScriptTarget.ES2022,
          true,
        )
        .statements.filter(ts.isExportDeclaration)
        .flatMap((d) =>
          d.exportClause && ts.isNamedExports(d.exportClause)
            ? d.exportClause.elements.map((e) => e.name.text)
            : [],
        ),
    );
    expect(
      named.filter((n) => apiNames.has(n)),
      'listed in both barrels',
    ).toEqual([]);
  });

  it("takes the supply barrel's types whole, naming none again, and none of its internal functions", () => {
    const file = path.join(ROOT, 'src', 'index.ts');
    const text = readFileSync(file, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
    const supply = sf.statements
      .filter(ts.isExportDeclaration)
      .filter((d) => (d.moduleSpecifier as ts.StringLiteral).text === './supply/index.js');
    // One `export type * from` (issue 33: the list is written once, in the barrel) ...
    expect(supply.filter((d) => d.isTypeOnly && d.exportClause === undefined)).toHaveLength(1);
    // ... and the named export lists only run-time names.
    const named = supply.flatMap((d) =>
      d.exportClause && ts.isNamedExports(d.exportClause) ? [...d.exportClause.elements] : [],
    );
    expect(named.filter((e) => e.isTypeOnly).map((e) => e.name.text)).toEqual([]);
    for (const n of [
      'compareToLock',
      'generationDiffOf',
      'stripCredentials',
      'skillsLockHash',
      'LOCK_VERSION',
    ]) {
      expect(n in internal, `${n} is internal`).toBe(true);
      expect(n in api, `${n} is no run-time export of the API`).toBe(false);
    }
    for (const e of named)
      expect(e.name.text in api, `${e.name.text} is a run-time export`).toBe(true);
  });

  it('is the only entry point package.json exports', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, { default: string }>;
    };
    expect(Object.keys(pkg.exports)).toEqual(['.']);
    expect(pkg.exports['.']!.default).toBe('./dist/index.js');
  });
});
