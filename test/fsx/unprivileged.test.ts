/**
 * The runner of the permission tests as uid 65534 (test/support/unprivileged.ts, issue 25): run as
 * root from a repository below a folder of mode 0700, it still runs the built module (bundled into
 * a folder that user can enter), and a test tree that user cannot reach is skipped with the folder
 * that blocks it named, never failed with a hint about a missing build.
 */
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, tmpDir } from '../support/cli.js';
import { blockedFolder, runAsNobody } from '../support/unprivileged.js';

describe.skipIf(process.getuid?.() !== 0)('running as nobody from a private folder', () => {
  it('bundles a module nobody cannot reach, packages included, and runs it', () => {
    const locked = mkdtempSync(path.join(tmpdir(), 'skilldex-locked-'));
    chmodSync(locked, 0o700);
    mkdirSync(path.join(locked, 'repo'));
    symlinkSync(path.join(REPO, 'node_modules'), path.join(locked, 'repo', 'node_modules'));
    const mod = path.join(locked, 'repo', 'mod.mjs');
    writeFileSync(
      mod,
      "import { parse } from 'yaml';\nimport { readdirSync } from 'node:fs';\nexport const list = (d) => ({ uid: process.getuid(), names: readdirSync(d), y: parse('a: 1') });\n",
    );
    expect(blockedFolder(mod)).toBe(locked);
    const data = tmpDir();
    chmodSync(data, 0o755);
    writeFileSync(path.join(data, 'x'), '');
    const r = runAsNobody<{ uid: number; names: string[]; y: unknown }>(
      mod,
      `m.list(${JSON.stringify(data)})`,
      data,
    );
    expect(r).toEqual({ ok: true, value: { uid: 65534, names: ['x'], y: { a: 1 } } });
  });

  it('skips, naming the folder, when the test tree cannot be reached', () => {
    const locked = mkdtempSync(path.join(tmpdir(), 'skilldex-locked-'));
    chmodSync(locked, 0o700);
    mkdirSync(path.join(locked, 'tree'));
    const r = runAsNobody(
      path.join(REPO, 'dist', 'fsx', 'index.js'),
      'm.walkFiles',
      path.join(locked, 'tree'),
    );
    expect(r.ok).toBe(false);
    expect(r.ok ? '' : r.skip).toContain(locked);
  });
});
