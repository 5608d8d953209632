/**
 * Crawl cases that need symbolic links, made at test time in temporary folders: reference loops,
 * links that leave the root (descents, leaves, shortcut segments, the index or stamp itself), and
 * links that stay inside the root. An instrumented reader shows that nothing outside the root is
 * ever read. Also the thrown failures: empty need, missing root, unknown option.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { crawlCascade } from '../../src/cascade/index.js';
import { tmpDir } from '../support/cli.js';
import { loggingReader, real, under, writeStampedIndexes } from './support.js';

function setup(indexes: Record<string, string>): { root: string; outside: string } {
  const base = real(tmpDir('skilldex-cascade-links-'));
  const root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  writeStampedIndexes(root, indexes);
  writeStampedIndexes(outside, { '.': 'secret-skill: pdf, x\n' });
  return { root, outside };
}

function crawlLogged(root: string, need: string) {
  const reader = loggingReader();
  const report = crawlCascade(root, need, { reader });
  for (const p of reader.read) expect(under(root, p), `read ${p} outside ${root}`).toBe(true);
  for (const p of reader.resolved)
    expect(under(root, p), `resolved ${p} outside ${root}`).toBe(true);
  return { report, reader };
}

describe('crawl with symbolic links', () => {
  it('ends reference loop when a descent leads back to a visited node', () => {
    const { root } = setup({ '.': 'a/: x\n', a: 'back/: x\n' });
    symlinkSync('..', path.join(root, 'a', 'back'));
    const { report } = crawlLogged(root, 'x');
    expect(report.outcome).toBe('reference loop');
    expect(report.visited).toEqual(['.', 'a']);
    expect(report.inconsistencies.map((p) => p.code)).toEqual(['REFERENCE_LOOP']);
  });

  it('ends reference loop on a link to the node itself', () => {
    const { root } = setup({ '.': 'self/: x\n' });
    symlinkSync('.', path.join(root, 'self'));
    const { report } = crawlLogged(root, 'x');
    expect(report.outcome).toBe('reference loop');
    expect(report.visited).toEqual(['.']);
  });

  it('refuses a descent through a link that leaves the root, and reads nothing outside', () => {
    const { root, outside } = setup({ '.': 'ext/: pdf\n' });
    symlinkSync(outside, path.join(root, 'ext'));
    const { report, reader } = crawlLogged(root, 'pdf');
    expect(report.outcome).toBe('subtree-escape');
    expect(report.inconsistencies.map((p) => p.code)).toEqual(['SUBTREE_ESCAPE']);
    expect(reader.read.some((p) => p.startsWith(outside))).toBe(false);
  });

  it('refuses a leaf whose link leaves the root', () => {
    const { root, outside } = setup({ '.': 'pdf-toolkit: pdf\n' });
    symlinkSync(outside, path.join(root, 'pdf-toolkit'));
    expect(crawlLogged(root, 'pdf').report.outcome).toBe('subtree-escape');
  });

  it('refuses a shortcut whose middle segment is a link leaving the root', () => {
    const { root, outside } = setup({ '.': 'a/b/: pdf\n' });
    mkdirSync(path.join(outside, 'b'));
    symlinkSync(outside, path.join(root, 'a'));
    const { report } = crawlLogged(root, 'pdf');
    expect(report.outcome).toBe('subtree-escape');
    expect(report.visited).toEqual(['.']);
  });

  it('refuses a skill.index that is itself a link out of the root', () => {
    const { root, outside } = setup({});
    symlinkSync(path.join(outside, 'skill.index'), path.join(root, 'skill.index'));
    const { report } = crawlLogged(root, 'pdf');
    expect(report.outcome).toBe('subtree-escape');
    expect(report.visited).toEqual([]);
  });

  it('does not trust a stamp that links out of the root', () => {
    const base = real(tmpDir('skilldex-cascade-links-'));
    const root = path.join(base, 'root');
    mkdirSync(root);
    const index = 'csv-cleaner: encoding\ncsv-viewer: tables\n';
    writeFileSync(path.join(root, 'skill.index'), index);
    writeStampedIndexes(path.join(base, 'elsewhere'), { '.': index });
    symlinkSync(
      path.join(base, 'elsewhere', 'skill.index.sha256'),
      path.join(root, 'skill.index.sha256'),
    );
    writeFileSync(
      path.join(root, 'skill.index.md'),
      '## csv-cleaner\n\ncsv files\n\n## csv-viewer\n\nterminal\n',
    );
    const { report } = crawlLogged(root, 'csv');
    expect(report.outcome).toBe('ambiguous');
    expect(report.inconsistencies.map((p) => p.code)).toEqual(['STAMP_MISMATCH']);
  });

  it('follows a link that stays inside the root and reports the real path', () => {
    const { root } = setup({ '.': 'alias/: pdf\n', 'real-docs': 'pdf-forms: pdf\n' });
    symlinkSync('real-docs', path.join(root, 'alias'));
    const { report } = crawlLogged(root, 'pdf');
    expect(report.outcome).toBe('hit');
    expect(report.visited).toEqual(['.', 'real-docs']);
    expect(report.hit).toEqual({ key: 'pdf-forms', path: 'real-docs/pdf-forms' });
  });

  it('crawls a root given through a link', () => {
    const { root } = setup({ '.': 'pdf-toolkit: pdf\n' });
    const link = path.join(path.dirname(root), 'root-link');
    symlinkSync(root, link);
    const report = crawlCascade(link, 'pdf');
    expect(report.hit).toEqual({ key: 'pdf-toolkit', path: 'pdf-toolkit' });
  });
});

describe('crawl failures', () => {
  it('refuses an empty need with INVALID_QUERY', () => {
    const { root } = setup({ '.': 'a: b\n' });
    expect(() => crawlCascade(root, '   ')).toThrow(
      expect.objectContaining({ code: 'INVALID_QUERY' }),
    );
  });

  it('refuses a missing root with FILE_NOT_FOUND', () => {
    expect(() => crawlCascade(path.join(tmpDir(), 'nope'), 'pdf')).toThrow(
      expect.objectContaining({ code: 'FILE_NOT_FOUND' }),
    );
  });

  it('refuses an unknown option with INVALID_ARGUMENT', () => {
    const { root } = setup({ '.': 'a: b\n' });
    expect(() => crawlCascade(root, 'a', { depth: 3 } as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });
});
