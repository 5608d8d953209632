/**
 * Supporting files recorded at index time (issue #12; src/catalog/write/skill-files.ts,
 * file-manifests.ts): the index records each skill's files with digest and size, never a link out,
 * a nested skill's files or a skipped folder, within the bounds; a re-index re-reads only files
 * whose size or mtime changed and notices a changed, added or removed file even when SKILL.md is
 * unchanged (new generation, same revision); a file changed after indexing is INDEX_DRIFT on read
 * and drift in `status`; rollback and `catalog copy` keep each generation's listing. Runs on both
 * backends (the `postgres` project gives PostgreSQL catalogs through newCatalogPath).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MAX_SKILL_FILES,
  MAX_SKILL_FILES_BYTES,
  Router,
  copyCatalog,
  getCatalogStatus,
  rollbackCatalog,
  type IndexReport,
} from '../../src/internal.js';
import { CatalogExplorer, type SkillFile } from '../../src/catalog/index.js';
import { computeGeneration } from '../../src/catalog/write/generation.js';
import { manifestIdOf } from '../../src/catalog/write/skill-files.js';
import { skillMd, tmpTree, writeTree } from '../support/cli.js';
import { NOW, codeOf, indexTree, newCatalogPath } from './support.js';

const sha256 = (b: Buffer | string): string =>
  `sha256:${createHash('sha256').update(b).digest('hex')}`;

const routers: Router[] = [];
afterEach(() => {
  for (const r of routers.splice(0)) r.close();
});

function router(catalog: string): Router {
  const r = new Router({ catalog, telemetry: false, now: NOW });
  routers.push(r);
  return r;
}

// A library with one skill of supporting files and one without.
function library(): string {
  return tmpTree(
    {
      'tool/SKILL.md': skillMd('tool', 'A skill with a script and a reference'),
      'tool/scripts/run.py': 'print("hello")\n',
      'tool/references/guide.md': '# Guide\n',
      'plain/SKILL.md': skillMd('plain', 'A skill with nothing beside its SKILL.md'),
    },
    'skilldex-files-',
  );
}

function files(catalog: string, skillId: string): readonly SkillFile[] {
  return router(catalog).listSkillFiles(skillId).files;
}

// Sets every folder below `dir` (and itself) to an mtime long past, as an untouched library has.
function age(dir: string): void {
  const stamp = 1_700_000_000;
  for (const e of readdirSync(dir, { withFileTypes: true }))
    if (e.isDirectory()) age(path.join(dir, e.name));
  utimesSync(dir, stamp, stamp);
}

function generationOf(r: IndexReport): string {
  return r.publish!.catalog_generation;
}

describe('supporting files recorded at index time', () => {
  it('records every regular file of the folder with its digest and size, and nothing else', () => {
    const outside = tmpTree({ 'secret.txt': 'outside\n', 'dir/x.txt': 'x\n' }, 'skilldex-out-');
    const lib = tmpTree(
      {
        'tool/SKILL.md': skillMd('tool', 'A skill with files of every kind'),
        'tool/scripts/run.py': 'print("hello")\n',
        'tool/assets/logo.bin': Buffer.from([0, 1, 2, 255]),
        'tool/node_modules/dep/index.js': 'module.exports = 1;\n',
        'tool/.git/HEAD': 'ref: refs/heads/main\n',
        'tool/nested/SKILL.md': skillMd('nested', 'A skill inside another skill folder'),
        'tool/nested/inner.txt': 'inner\n',
      },
      'skilldex-files-',
    );
    symlinkSync(path.join(outside, 'secret.txt'), path.join(lib, 'tool/link-out.txt'));
    symlinkSync(path.join(outside, 'dir'), path.join(lib, 'tool/linked-dir'));
    symlinkSync(path.join(lib, 'tool/scripts/run.py'), path.join(lib, 'tool/link-in.py'));
    const catalog = newCatalogPath();
    const report = indexTree(catalog, lib);
    expect(files(catalog, 'tool')).toEqual([
      { path: 'assets/logo.bin', digest: sha256(Buffer.from([0, 1, 2, 255])), size: 4 },
      { path: 'scripts/run.py', digest: sha256('print("hello")\n'), size: 15 },
    ]);
    expect(files(catalog, 'nested')).toEqual([
      { path: 'inner.txt', digest: sha256('inner\n'), size: 6 },
    ]);
    // The links out are told (as discovery's skips), never recorded; the link inside is simply not
    // a file of its own.
    expect(report.supporting_files).toMatchObject({ listed: 3, hashed: 3, truncated: 0 });
    expect(report.supporting_files.problems).toEqual([]);
    expect(report.skipped.map((k) => [k.code, path.basename(k.path)]).sort()).toEqual([
      ['PATH_OUTSIDE_ROOT', 'link-out.txt'],
      ['PATH_OUTSIDE_ROOT', 'linked-dir'],
    ]);
    expect(codeOf(() => router(catalog).readSkillFile('tool', 'link-out.txt'))).toBe(
      'FILE_NOT_FOUND',
    );
    expect(codeOf(() => router(catalog).readSkillFile('tool', 'link-in.py'))).toBe(
      'FILE_NOT_FOUND',
    );
    expect(router(catalog).readSkillFile('tool', 'scripts/run.py').bytes.toString()).toBe(
      'print("hello")\n',
    );
  });

  it('a FIFO in a skill folder is told, never listed or opened (the index does not hang)', () => {
    const lib = library();
    execFileSync('mkfifo', [path.join(lib, 'tool/scripts/pipe')]);
    const catalog = newCatalogPath();
    const report = indexTree(catalog, lib);
    expect(report.supporting_files.problems.map((p) => [p.code, path.basename(p.path)])).toEqual([
      ['NOT_A_FILE', 'pipe'],
    ]);
    expect(files(catalog, 'tool').map((f) => f.path)).toEqual([
      'references/guide.md',
      'scripts/run.py',
    ]);
  });

  it('bounds: at most MAX_SKILL_FILES files and MAX_SKILL_FILES_BYTES bytes, marked truncated', () => {
    const many: Record<string, string> = { 'many/SKILL.md': skillMd('many', 'Too many files') };
    for (let i = 0; i < MAX_SKILL_FILES + 3; i++)
      many[`many/data/f${String(i).padStart(3, '0')}.txt`] = `file ${i}\n`;
    const lib = tmpTree(
      {
        ...many,
        'big/SKILL.md': skillMd('big', 'A file over the byte bound'),
        'big/a-small.txt': 'small\n',
        'big/z-small.txt': 'also small\n',
      },
      'skilldex-bounds-',
    );
    writeFileSync(path.join(lib, 'big/m-huge.bin'), Buffer.alloc(MAX_SKILL_FILES_BYTES, 1));
    const catalog = newCatalogPath();
    const report = indexTree(catalog, lib);
    const m = router(catalog).listSkillFiles('many');
    expect(m.files).toHaveLength(MAX_SKILL_FILES);
    expect(m.files.at(-1)!.path).toBe(`data/f${String(MAX_SKILL_FILES - 1).padStart(3, '0')}.txt`);
    expect(m.truncated).toBe(true);
    // The huge file would pass the byte bound after a-small.txt: left out, the next file still listed.
    const b = router(catalog).listSkillFiles('big');
    expect(b.files.map((f) => f.path)).toEqual(['a-small.txt', 'z-small.txt']);
    expect(b.truncated).toBe(true);
    expect(report.supporting_files.truncated).toBe(2);
    // Truncation is part of the listing's id.
    expect(manifestIdOf({ files: b.files, truncated: true })).not.toBe(
      manifestIdOf({ files: b.files, truncated: false }),
    );
  });

  it('a re-index reads only changed files and notices a changed, added or removed one with SKILL.md unchanged', () => {
    const lib = library();
    const catalog = newCatalogPath();
    const first = indexTree(catalog, lib);
    const revision = router(catalog).getSkill('tool').revision_id;
    expect(first.supporting_files).toMatchObject({ listed: 2, hashed: 2 });

    const same = indexTree(catalog, lib);
    expect(same.supporting_files.hashed).toBe(0);
    // Folders listed within RACY_MS of their last change are walked again, never trusted on mtime.
    expect(same.supporting_files.reused).toBe(0);
    expect(same.publish!.changed).toBe(false);
    expect(same.changed).toEqual([]);

    writeFileSync(path.join(lib, 'tool/scripts/run.py'), 'print("hello, world")\n');
    const changed = indexTree(catalog, lib);
    expect(changed.supporting_files.hashed).toBe(1);
    expect(changed.changed).toEqual(['tool']);
    expect(changed.read).toBe(0);
    expect(generationOf(changed)).not.toBe(generationOf(first));
    expect(router(catalog).getSkill('tool').revision_id).toBe(revision);
    const explorer = new CatalogExplorer(catalog);
    try {
      expect(explorer.generationChanges(1)[0]!.examples).toEqual({
        added: [],
        changed: ['tool'],
        retired: [],
      });
    } finally {
      explorer.close();
    }
    expect(router(catalog).readSkillFile('tool', 'scripts/run.py').file.digest).toBe(
      sha256('print("hello, world")\n'),
    );

    writeFileSync(path.join(lib, 'tool/references/extra.md'), 'more\n');
    const added = indexTree(catalog, lib);
    expect(added.supporting_files.hashed).toBe(1);
    expect(added.changed).toEqual(['tool']);
    expect(files(catalog, 'tool').map((f) => f.path)).toEqual([
      'references/extra.md',
      'references/guide.md',
      'scripts/run.py',
    ]);

    rmSync(path.join(lib, 'tool/references'), { recursive: true });
    const removed = indexTree(catalog, lib);
    expect(removed.supporting_files.hashed).toBe(0);
    expect(removed.changed).toEqual(['tool']);
    expect(files(catalog, 'tool').map((f) => f.path)).toEqual(['scripts/run.py']);
    expect(new Set([first, changed, added, removed].map(generationOf)).size).toBe(4);

    // Without supporting files the skill's generation line is the SKILL.md-only one again.
    rmSync(path.join(lib, 'tool/scripts'), { recursive: true });
    const none = indexTree(catalog, lib);
    const r = router(catalog);
    const members = ['plain', 'tool'].map((id) => ({
      skill_id: id,
      revision_id: r.getSkill(id).revision_id,
      state: 'active' as const,
    }));
    expect(generationOf(none)).toBe(
      computeGeneration(members, getCatalogStatus({ catalog }).published!.policy),
    );
    expect(files(catalog, 'tool')).toEqual([]);
  });

  it('a folder unchanged since a clean listing is not walked again; an entry made in any of its folders is seen', () => {
    const lib = library();
    const tool = path.join(lib, 'tool');
    const catalog = newCatalogPath();
    age(tool);
    expect(indexTree(catalog, lib).supporting_files.reused).toBe(0);
    const again = indexTree(catalog, lib);
    expect(again.supporting_files).toMatchObject({ reused: 1, hashed: 0, listed: 2 });
    // A rename changes its folder's mtime: walked, the file found under its new name.
    renameSync(path.join(tool, 'scripts/run.py'), path.join(tool, 'scripts/go.py'));
    const renamed = indexTree(catalog, lib);
    expect(renamed.supporting_files.reused).toBe(0);
    expect(files(catalog, 'tool').map((f) => f.path)).toEqual([
      'references/guide.md',
      'scripts/go.py',
    ]);
    age(tool);
    indexTree(catalog, lib);
    expect(indexTree(catalog, lib).supporting_files.reused).toBe(1);
    // A nested skill made in a sub-folder: its files leave this skill's listing.
    writeTree(tool, {
      'references/deep/SKILL.md': skillMd('deep', 'A skill made inside a references folder'),
      'references/deep/x.txt': 'x\n',
    });
    const nested = indexTree(catalog, lib);
    expect(nested.added).toEqual(['deep']);
    expect(files(catalog, 'tool').map((f) => f.path)).toEqual([
      'references/guide.md',
      'scripts/go.py',
    ]);
    expect(files(catalog, 'deep').map((f) => f.path)).toEqual(['x.txt']);
    age(tool);
    indexTree(catalog, lib);
    expect(indexTree(catalog, lib).supporting_files.reused).toBe(2);
    // A file replaced by a link out: walked, the link never recorded.
    const outside = tmpTree({ 'secret.txt': 'outside\n' }, 'skilldex-out-');
    rmSync(path.join(tool, 'scripts/go.py'));
    symlinkSync(path.join(outside, 'secret.txt'), path.join(tool, 'scripts/go.py'));
    const linked = indexTree(catalog, lib);
    expect(linked.skipped.map((k) => k.code)).toEqual(['PATH_OUTSIDE_ROOT']);
    expect(files(catalog, 'tool').map((f) => f.path)).toEqual(['references/guide.md']);
    // A folder holding a link is not clean: walked on every run.
    age(tool);
    indexTree(catalog, lib);
    const still = indexTree(catalog, lib);
    expect(still.supporting_files.reused).toBe(1);
    expect(files(catalog, 'tool').map((f) => f.path)).toEqual(['references/guide.md']);
  });

  it('a file changed after indexing is INDEX_DRIFT on read and drift in status, until a re-index', () => {
    const lib = library();
    const catalog = newCatalogPath();
    indexTree(catalog, lib);
    expect(getCatalogStatus({ catalog }).drifted).toEqual([]);
    const script = path.join(lib, 'tool/scripts/run.py');
    writeFileSync(script, 'print("HELLO")\n'); // same size, other bytes
    expect(codeOf(() => router(catalog).readSkillFile('tool', 'scripts/run.py'))).toBe(
      'INDEX_DRIFT',
    );
    const guide = path.join(lib, 'tool/references/guide.md');
    rmSync(guide);
    expect(codeOf(() => router(catalog).readSkillFile('tool', 'references/guide.md'))).toBe(
      'INDEX_DRIFT',
    );
    expect(getCatalogStatus({ catalog }).drifted).toEqual([
      { skill_id: 'tool', path: guide, file: 'references/guide.md', reason: 'missing' },
      { skill_id: 'tool', path: script, file: 'scripts/run.py', reason: 'changed' },
    ]);
    // A link planted where a recorded file was is drift too, never a read through the link.
    const outside = tmpTree({ 'secret.txt': 'print("HELLO")\n' }, 'skilldex-out-');
    rmSync(script);
    symlinkSync(path.join(outside, 'secret.txt'), script);
    let details: Record<string, unknown> = {};
    try {
      router(catalog).readSkillFile('tool', 'scripts/run.py');
    } catch (err) {
      details = (err as { details: Record<string, unknown> }).details;
    }
    expect(details).toMatchObject({ path: 'scripts/run.py', problem: 'PATH_OUTSIDE_ROOT' });
    expect(getCatalogStatus({ catalog }).drifted.map((d) => d.reason)).toEqual([
      'missing',
      'changed',
    ]);
    rmSync(script);
    writeFileSync(script, 'print("again")\n');
    writeFileSync(guide, '# Guide\n');
    indexTree(catalog, lib);
    expect(getCatalogStatus({ catalog }).drifted).toEqual([]);
    expect(router(catalog).readSkillFile('tool', 'scripts/run.py').bytes.toString()).toBe(
      'print("again")\n',
    );
  });

  it('a change that keeps size and mtime is not re-read by index or status, and a read still refuses the bytes', () => {
    const lib = library();
    const catalog = newCatalogPath();
    const script = path.join(lib, 'tool/scripts/run.py');
    // A whole second, so that setting it again restores the mtime exactly.
    const stamp = 1_700_000_000;
    utimesSync(script, stamp, stamp);
    indexTree(catalog, lib);
    writeFileSync(script, 'print("HELLO")\n');
    utimesSync(script, stamp, stamp);
    expect(indexTree(catalog, lib).supporting_files.hashed).toBe(0);
    expect(codeOf(() => router(catalog).readSkillFile('tool', 'scripts/run.py'))).toBe(
      'INDEX_DRIFT',
    );
    // status trusts size and mtime as index does (for SKILL.md files too); only a read hashes.
    expect(getCatalogStatus({ catalog }).drifted).toEqual([]);
  });

  it('rollback republishes an earlier generation with the listing it had', () => {
    const lib = library();
    const catalog = newCatalogPath();
    const first = indexTree(catalog, lib);
    const before = files(catalog, 'tool');
    writeFileSync(path.join(lib, 'tool/scripts/run.py'), 'print("v2")\n');
    const second = indexTree(catalog, lib);
    expect(generationOf(second)).not.toBe(generationOf(first));
    const back = rollbackCatalog({ catalog, now: NOW });
    expect(back.publish.catalog_generation).toBe(generationOf(first));
    expect(files(catalog, 'tool')).toEqual(before);
    // The rolled-back listing no longer matches the file on disk: drift, never the newer bytes.
    expect(codeOf(() => router(catalog).readSkillFile('tool', 'scripts/run.py'))).toBe(
      'INDEX_DRIFT',
    );
  });

  it('catalog copy keeps every listing and generation id', () => {
    const lib = library();
    const from = newCatalogPath();
    indexTree(from, lib);
    writeFileSync(path.join(lib, 'tool/scripts/run.py'), 'print("v2")\n');
    const published = generationOf(indexTree(from, lib));
    const to = newCatalogPath();
    const report = copyCatalog(from, to);
    expect(report.published).toBe(published);
    expect(report.rows['file_manifests']).toBe(2);
    expect(router(to).listSkillFiles('tool').files).toEqual(files(from, 'tool'));
    // The copy re-indexes incrementally from the copied stats: nothing to re-read.
    expect(indexTree(to, lib).supporting_files.hashed).toBe(0);
  });
});

describe('files listing ids', () => {
  const fileArb = fc.record({
    path: fc.stringMatching(/^[a-zé\t\n "/-]{1,12}$/),
    digest: fc.stringMatching(/^sha256:[0-9a-f]{64}$/),
    size: fc.nat(),
  });
  it('ignore the order files are given in, and change with any file (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fileArb, { selector: (f) => f.path, minLength: 1, maxLength: 12 }),
        fc.boolean(),
        (list, truncated) => {
          const id = manifestIdOf({ files: list, truncated });
          expect(id).toMatch(/^sha256:[0-9a-f]{64}$/);
          expect(manifestIdOf({ files: [...list].reverse(), truncated })).toBe(id);
          expect(manifestIdOf({ files: list.slice(1), truncated })).not.toBe(id);
          const [f, ...rest] = list;
          expect(
            manifestIdOf({ files: [{ ...f!, size: f!.size + 1 }, ...rest], truncated }),
          ).not.toBe(id);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('are null for a skill without supporting files, which keeps its old generation line', () => {
    expect(manifestIdOf({ files: [], truncated: false })).toBeNull();
    expect(manifestIdOf({ files: [], truncated: true })).not.toBeNull();
    const m = { skill_id: 'a', revision_id: `sha256:${'1'.repeat(64)}`, state: 'active' as const };
    const g = computeGeneration([m], 'p');
    expect(computeGeneration([{ ...m, manifest_id: null }], 'p')).toBe(g);
    expect(computeGeneration([{ ...m, manifest_id: `sha256:${'2'.repeat(64)}` }], 'p')).not.toBe(g);
  });
});
