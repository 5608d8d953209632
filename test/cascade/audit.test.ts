/**
 * `cascade audit` (docs/cascade.md): a clean cascade audits clean; a messy one lists every problem a
 * crawl could meet, each with its code (never asserted by message text); the CLI exits 0 only
 * when clean.
 */
import { mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditCascade, buildCascade } from '../../src/cascade/index.js';
import { runCli, skillMd, tmpDir, tmpTree, writeTree } from '../support/cli.js';
import { real, writeStampedIndexes } from './support.js';

describe('cascade audit', () => {
  it('is clean on a freshly built cascade, and the CLI exits 0', async () => {
    const dir = tmpTree({
      'docs/pdf/SKILL.md': skillMd('pdf', 'PDF forms'),
      'data/csv/SKILL.md': skillMd('csv', 'CSV repair'),
    });
    buildCascade(dir);
    expect(auditCascade(dir)).toMatchObject({ clean: true, problems: [], skills: 2, reachable: 2 });
    expect((await runCli(['cascade', 'audit', dir])).code).toBe(0);
  });

  it('lists every kind of problem a crawl could meet', async () => {
    const root = path.join(real(tmpDir('skilldex-cascade-audit-')), 'root');
    mkdirSync(root);
    writeStampedIndexes(root, {
      '.':
        [
          'this line has no colon',
          'pdf: pdf, forms',
          'docs/: documents',
          'ghost/: nothing',
          'nothing-here/: empty',
          'empty/: void',
          '../up/: escape',
          'loop/: loop',
          'gone: a leaf without a folder',
          'csv: tables',
          'csv-tools: tables, cleaning',
        ].join('\n') + '\n',
      'loop/inner': 'x: y\n',
    });
    writeTree(root, {
      'nothing-here/skill.index': 'no-skill: x\n',
      'pdf/SKILL.md': skillMd('pdf', 'PDF'),
      'csv/SKILL.md': skillMd('csv', 'CSV'),
      'csv-tools/SKILL.md': skillMd('csv-tools', 'CSV tools'),
      'nothing-here/no-skill/README.md': 'not a skill\n',
      'docs/skill.index/.keep': '',
      'empty/README.md': 'no index\n',
      'orphan/SKILL.md': skillMd('orphan', 'No entry leads here'),
      'loop/skill.index': 'inner/: y\nback/: y\n',
      'loop/skill.index.sha256': '0'.repeat(64) + '\n',
    });
    symlinkSync('..', path.join(root, 'loop', 'back'));
    const report = auditCascade(root);
    const codes = new Set(report.problems.map((p) => p.code));
    for (const code of [
      'MALFORMED_LINE',
      'STAMP_MISMATCH',
      'STAMP_MISSING',
      'BROKEN_DESCENT',
      'SUBTREE_ESCAPE',
      'REFERENCE_LOOP',
      'UNREADABLE_NODE',
      'UNREACHABLE_SKILL',
      'DEAD_ENTRY',
      'AMBIGUOUS_KEYWORDS',
    ]) {
      expect(codes, code).toContain(code);
    }
    expect(report.clean).toBe(false);
    expect(report.problems.find((p) => p.code === 'MALFORMED_LINE')).toMatchObject({
      path: 'skill.index',
      line: 1,
    });
    expect(report.problems.find((p) => p.code === 'UNREACHABLE_SKILL')).toMatchObject({
      path: 'orphan',
    });
    const dead = report.problems
      .filter((p) => p.code === 'DEAD_ENTRY')
      .map((p) => [p.path, p.line]);
    expect(dead).toEqual(
      expect.arrayContaining([
        ['skill.index', 5],
        ['skill.index', 9],
        ['nothing-here/skill.index', 1],
      ]),
    );
    const cli = await runCli(['cascade', 'audit', root, '--json']);
    expect(cli.code).toBe(1);
    expect(JSON.parse(cli.stdout)).toEqual(JSON.parse(JSON.stringify(report)));
  });

  it('flags a skill whose own name ends ambiguous', () => {
    const root = real(tmpDir());
    writeStampedIndexes(root, {
      '.': 'a/: pdf-tools\nb/: pdf-tools-pro\n',
      a: 'pdf-tools: pdf\n',
      b: 'pdf-tools-pro: pdf\n',
    });
    writeTree(root, {
      'a/pdf-tools/SKILL.md': skillMd('pdf-tools', 'x'),
      'b/pdf-tools-pro/SKILL.md': skillMd('pdf-tools-pro', 'y'),
    });
    const report = auditCascade(root);
    expect(report.problems.map((p) => [p.code, p.path])).toEqual([
      ['AMBIGUOUS_KEYWORDS', 'a/pdf-tools'],
    ]);
  });

  it('says INDEX_MISSING and lists the skills as unreachable when the root has no index', () => {
    const dir = tmpTree({ 'pdf/SKILL.md': skillMd('pdf', 'PDF') });
    expect(auditCascade(dir).problems.map((p) => p.code)).toEqual([
      'UNREACHABLE_SKILL',
      'INDEX_MISSING',
    ]);
  });

  it('refuses a missing root', () => {
    expect(() => auditCascade(path.join(tmpDir(), 'nope'))).toThrow(
      expect.objectContaining({ code: 'FILE_NOT_FOUND' }),
    );
  });
});
