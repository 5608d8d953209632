/**
 * The cascade tree (readCascadeTree, the explorer's first view of a cascade, issue 27): every node
 * reached through descents with its entries and keywords, the problems the index files show
 * (malformed lines, stamps, broken, escaping and looping descents, unreadable nodes) — each also
 * found by the full audit — and none of the audit's slower checks (dead leaves, unreachable skills,
 * ambiguity); a fingerprint that changes exactly when an index changes.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditCascade, buildCascade, readCascadeTree } from '../../src/cascade/index.js';
import { skillMd, tmpDir, tmpTree, writeTree } from '../support/cli.js';
import { real, writeStampedIndexes } from './support.js';

describe('readCascadeTree', () => {
  it('lists every node with its entries, and a built cascade has no problem', () => {
    const dir = tmpTree({
      'docs/pdf/SKILL.md': skillMd('pdf', 'PDF forms', 'keywords: [forms, fill]\n'),
      'data/csv/SKILL.md': skillMd('csv', 'CSV repair'),
    });
    buildCascade(dir);
    const tree = readCascadeTree(dir);
    expect(tree.nodes.map((n) => n.node)).toEqual(['.', 'data', 'docs']);
    expect(tree.problems).toEqual([]);
    const pdf = tree.nodes.find((n) => n.node === 'docs')!.entries.find((e) => e.key === 'pdf')!;
    expect(pdf).toMatchObject({ kind: 'leaf', target: 'docs/pdf' });
    expect(pdf.keywords).toEqual(expect.arrayContaining(['forms', 'fill']));
    expect(tree.reached).toBe(2);
  });

  it("reports the index files' problems, each of which the audit reports too, and none of the audit's slow checks", () => {
    const root = path.join(real(tmpDir('skilldex-cascade-tree-')), 'root');
    mkdirSync(root);
    writeStampedIndexes(root, {
      '.':
        [
          'this line has no colon',
          'pdf: pdf, forms',
          'ghost/: nothing',
          'empty/: void',
          '../up/: escape',
          'loop/: loop',
          'gone: a leaf without a folder',
          'docs/: documents',
        ].join('\n') + '\n',
    });
    writeTree(root, {
      'pdf/SKILL.md': skillMd('pdf', 'PDF'),
      'empty/README.md': 'no index\n',
      'orphan/SKILL.md': skillMd('orphan', 'No entry leads here'),
      'loop/skill.index': 'back/: y\n',
      'loop/skill.index.sha256': '0'.repeat(64) + '\n',
      'docs/skill.index/.keep': '',
    });
    symlinkSync('..', path.join(root, 'loop', 'back'));
    const tree = readCascadeTree(root);
    const codes = new Set(tree.problems.map((p) => p.code));
    for (const code of [
      'MALFORMED_LINE',
      'STAMP_MISMATCH',
      'BROKEN_DESCENT',
      'SUBTREE_ESCAPE',
      'REFERENCE_LOOP',
      'UNREADABLE_NODE',
    ])
      expect(codes, code).toContain(code);
    for (const code of ['DEAD_ENTRY', 'UNREACHABLE_SKILL', 'AMBIGUOUS_KEYWORDS'])
      expect(codes, code).not.toContain(code);
    const audit = new Set(auditCascade(root).problems.map((p) => `${p.code} ${p.path} ${p.line}`));
    for (const p of tree.problems)
      if (p.code !== 'REFERENCE_LOOP') expect(audit).toContain(`${p.code} ${p.path} ${p.line}`);
  });

  it('keeps its fingerprint until an index changes', () => {
    const dir = tmpTree({ 'docs/pdf/SKILL.md': skillMd('pdf', 'PDF forms') });
    buildCascade(dir);
    const a = readCascadeTree(dir).fingerprint;
    expect(readCascadeTree(dir).fingerprint).toBe(a);
    writeFileSync(path.join(dir, 'docs', 'pdf', 'SKILL.md'), skillMd('pdf', 'PDF forms, edited'));
    expect(readCascadeTree(dir).fingerprint).toBe(a);
    buildCascade(dir);
    expect(readCascadeTree(dir).fingerprint).not.toBe(a);
  });

  it('refuses a root that does not exist', () => {
    expect(() => readCascadeTree(path.join(tmpDir(), 'none'))).toThrow(
      expect.objectContaining({ code: 'FILE_NOT_FOUND' }),
    );
  });
});
