/**
 * `skilldex diff` as a library (issue #28; src/supply/diff.ts): after a re-index the diff of a skill
 * shows each frontmatter field, the body as unified hunks and the supporting files by digest; sides
 * name generations, revisions, `published` or `working`; defaults pick the latest earlier state that
 * differs; a pruned text is reported, not guessed; unknown sides are coded; a generation diff lists
 * skills added, removed and changed. Runs on both backends.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deprecateSkill, diffGenerations, diffSkill, indexCatalog } from './support.js';
import { tmpTree, writeTree } from '../support/cli.js';
import { NOW, codeOf, indexTree, newCatalogPath, skillText } from '../catalog/support.js';

const BODY = ['# Tool', '', 'Step one.', 'Step two.', 'Step three.', ''].join('\n');

// A library of two skills, indexed once (generation 1), then `tool` edited and indexed again (2).
function twoGenerations(): { root: string; catalog: string } {
  const root = tmpTree({
    'tool/SKILL.md': skillText('tool', { description: 'A tool', version: '1.0', body: BODY }),
    'other/SKILL.md': skillText('other', { description: 'Another skill' }),
  });
  const catalog = newCatalogPath();
  indexTree(catalog, root);
  writeTree(root, {
    'tool/SKILL.md': skillText('tool', {
      description: 'A tool, improved',
      version: '1.1',
      keywords: ['pdf'],
      body: BODY.replace('Step two.', 'Step two, done better.'),
    }),
    'tool/scripts/run.sh': 'echo run\n',
  });
  indexTree(catalog, root);
  return { root, catalog };
}

describe('diffSkill', () => {
  it('shows fields, body hunks and files between the last two generations by default', () => {
    const { catalog } = twoGenerations();
    const d = diffSkill({ catalog, skill_id: 'tool' });
    expect(d.from).toMatchObject({ kind: 'generation', seq: 1, version: '1.0' });
    expect(d.to).toMatchObject({ kind: 'working', version: '1.1' });
    expect(d.identical).toBe(false);
    expect(d.frontmatter).toEqual([
      { field: 'description', change: 'changed', from: 'A tool', to: 'A tool, improved' },
      { field: 'keywords', change: 'added', to: ['pdf'] },
      { field: 'version', change: 'changed', from: '1.0', to: '1.1' },
    ]);
    expect(d.body).toMatchObject({ status: 'changed', added_lines: 1, removed_lines: 1 });
    expect(d.body.hunks[0]!.lines).toContain('-Step two.');
    expect(d.body.hunks[0]!.lines).toContain('+Step two, done better.');
    expect(d.files.changes).toEqual([
      { path: 'scripts/run.sh', change: 'added', to_digest: expect.stringMatching(/^sha256:/) },
    ]);
  });

  it('names sides by generation, published, working and revision prefix', () => {
    const { catalog } = twoGenerations();
    const forward = diffSkill({ catalog, skill_id: 'tool', from: '1', to: 'published' });
    expect(forward.frontmatter.map((f) => f.field)).toEqual(['description', 'keywords', 'version']);
    const rev = forward.from.revision_id!;
    const byRevision = diffSkill({ catalog, skill_id: 'tool', from: rev.slice(0, 15) });
    expect(byRevision.from).toMatchObject({ kind: 'revision', revision_id: rev });
    expect(byRevision.body).toEqual(forward.body);
    // The supporting files a revision was served with are found from the generation that served it.
    expect(byRevision.files).toEqual(forward.files);
    const backwards = diffSkill({ catalog, skill_id: 'tool', from: 'working', to: '1' });
    expect(backwards.frontmatter[0]).toMatchObject({ change: 'changed', to: 'A tool' });
    expect(diffSkill({ catalog, skill_id: 'other' })).toMatchObject({
      identical: true,
      frontmatter: [],
      body: { status: 'same' },
    });
  });

  it('shows a skill added since the earlier state, and a staged change before publish', () => {
    const { root, catalog } = twoGenerations();
    writeTree(root, { 'fresh/SKILL.md': skillText('fresh', { description: 'New here' }) });
    writeTree(root, {
      'other/SKILL.md': skillText('other', { description: 'Another skill, staged' }),
    });
    indexTree(catalog, root, { publish: false });
    const fresh = diffSkill({ catalog, skill_id: 'fresh' });
    expect(fresh.from.revision_id).toBeNull();
    expect(fresh.frontmatter.every((f) => f.change === 'added')).toBe(true);
    expect(fresh.body.status).toBe('changed');
    const staged = diffSkill({ catalog, skill_id: 'other', from: 'published' });
    expect(staged.frontmatter).toEqual([
      {
        field: 'description',
        change: 'changed',
        from: 'Another skill',
        to: 'Another skill, staged',
      },
    ]);
  });

  it('says the body is not available once its text was pruned', () => {
    const { root, catalog } = twoGenerations();
    writeTree(root, { 'tool/SKILL.md': skillText('tool', { description: 'third' }) });
    indexCatalog({
      catalog,
      scopes: [root],
      home: root,
      project: root,
      now: NOW,
      keepRevisions: 0,
    });
    const d = diffSkill({ catalog, skill_id: 'tool', from: '1', to: '2' });
    expect(d.body.status).toBe('unavailable');
    expect(d.body.reason).toMatch(/not stored/);
    // The frontmatter comes from the revisions table, which keeps every revision.
    expect(d.frontmatter.length).toBeGreaterThan(0);
  });

  it('codes unknown skills, generations and revisions', () => {
    const { catalog } = twoGenerations();
    expect(codeOf(() => diffSkill({ catalog, skill_id: 'nope' }))).toBe('SKILL_NOT_FOUND');
    expect(codeOf(() => diffSkill({ catalog, skill_id: 'tool', from: '99' }))).toBe(
      'GENERATION_NOT_FOUND',
    );
    expect(codeOf(() => diffSkill({ catalog, skill_id: 'tool', from: 'deadbeefdeadbeef' }))).toBe(
      'REVISION_NOT_FOUND',
    );
    expect(codeOf(() => diffSkill({ catalog, skill_id: 'tool', from: 'latest' }))).toBe(
      'INVALID_ARGUMENT',
    );
  });
});

describe('diffGenerations', () => {
  it('lists skills added, removed and changed, with what changed', () => {
    const { root, catalog } = twoGenerations();
    rmSync(path.join(root, 'other'), { recursive: true });
    writeTree(root, { 'fresh/SKILL.md': skillText('fresh', { description: 'New here' }) });
    indexCatalog({
      catalog,
      scopes: [root],
      home: root,
      project: root,
      now: NOW,
      allowShrink: true,
    });
    deprecateSkill(catalog, 'tool');
    const d = diffGenerations({ catalog, from: '1' });
    expect(d.to).toMatchObject({ seq: 4 });
    expect(d.added.map((a) => a.skill_id)).toEqual(['fresh']);
    expect(d.removed.map((a) => a.skill_id)).toEqual(['other']);
    expect(d.changed).toEqual([
      expect.objectContaining({
        skill_id: 'tool',
        state: 'deprecated',
        from_state: 'active',
        revision_changed: true,
        files_changed: true,
        state_changed: true,
      }),
    ]);
    expect(d.counts).toEqual({ added: 1, removed: 1, changed: 1, unchanged: 0 });
    // Default: the published generation against the one before it.
    const last = diffGenerations({ catalog });
    expect(last.from).toMatchObject({ seq: 3 });
    expect(last.changed.map((c) => [c.skill_id, c.state_changed, c.revision_changed])).toEqual([
      ['tool', true, false],
    ]);
    writeFileSync(path.join(root, 'fresh/SKILL.md'), skillText('fresh', { description: 'Staged' }));
    indexTree(catalog, root, { publish: false });
    const staged = diffGenerations({ catalog, from: 'published', to: 'working' });
    expect(staged.to).toBe('working');
    expect(staged.changed.map((c) => c.skill_id)).toEqual(['fresh']);
    expect(codeOf(() => diffGenerations({ catalog, from: '0' }))).toBe('GENERATION_NOT_FOUND');
  });
});
