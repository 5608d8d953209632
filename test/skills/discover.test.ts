/**
 * Discovery (src/skills/discover.ts, issue #2 §4, docs/cli.md `skilldex scan`): scope
 * precedence and shadowing, dedup of byte-identical files keeping provenance, near-duplicates by
 * BOM and line endings, links between sanctioned scopes followed and links out refused unread.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  discoverSkills,
  enumerateSkillFiles,
  loadSkillFile,
  resolveIdentities,
  resolveScopes,
} from '../../src/skills/index.js';
import { sha256Of } from '../../src/fsx/index.js';
import { tmpDir, writeTree } from '../support/cli.js';
import { skill } from './support.js';

function layout(files: Record<string, string | Uint8Array>): {
  base: string;
  home: string;
  project: string;
} {
  const base = realpathSync(tmpDir());
  mkdirSync(path.join(base, 'home'));
  mkdirSync(path.join(base, 'project'));
  writeTree(base, files);
  return { base, home: path.join(base, 'home'), project: path.join(base, 'project') };
}

describe('shadowing', () => {
  it('personal beats project for one id, and the loser is reported as shadowed', () => {
    const { base, home, project } = layout({
      'home/.claude/skills/pdf/SKILL.md': skill('pdf', 'Personal PDF skill.'),
      'project/.claude/skills/pdf/SKILL.md': skill('pdf', 'Project PDF skill.'),
      'project/.claude/skills/csv/SKILL.md': skill('csv'),
    });
    const report = discoverSkills({ home, project });
    expect(report.skills.map((s) => [s.skill_id, s.scope])).toEqual([
      ['pdf', 'personal'],
      ['csv', 'project'],
    ]);
    expect(report.skills[0]!.description).toBe('Personal PDF skill.');
    expect(report.shadowed).toEqual([
      {
        skill_id: 'pdf',
        winner: path.join(base, 'home/.claude/skills/pdf/SKILL.md'),
        winner_scope: 'personal',
        shadowed: path.join(base, 'project/.claude/skills/pdf/SKILL.md'),
        shadowed_scope: 'project',
      },
    ]);
  });

  it('orders personal, personal-agents, project, project-agents, then plugins', () => {
    const { home, project } = layout({
      'home/.agents/skills/x/SKILL.md': skill('x', 'personal agents'),
      'project/.claude/skills/x/SKILL.md': skill('x', 'project'),
      'project/.agents/skills/x/SKILL.md': skill('x', 'project agents'),
      'project/.agents/skills/y/SKILL.md': skill('y', 'project agents y'),
      'project/.claude/skills/y/SKILL.md': skill('y', 'project y'),
    });
    const report = discoverSkills({ home, project });
    expect(report.skills.map((s) => [s.skill_id, s.scope])).toEqual([
      ['x', 'personal-agents'],
      ['y', 'project'],
    ]);
    expect(report.shadowed.map((s) => [s.skill_id, s.winner_scope, s.shadowed_scope])).toEqual([
      ['x', 'personal-agents', 'project'],
      ['x', 'personal-agents', 'project-agents'],
      ['y', 'project', 'project-agents'],
    ]);
  });

  it('keeps plugin skills apart from plain ids (plugin:name)', () => {
    const { base, home, project } = layout({
      'home/.claude/skills/extract/SKILL.md': skill('extract'),
      'home/.claude/plugins/pdfplug/skills/extract/SKILL.md': skill('extract', 'from the plugin'),
    });
    writeTree(base, {
      'home/.claude/plugins/installed_plugins.json': JSON.stringify({
        version: 2,
        plugins: { 'pdfplug@mkt': [] },
      }),
    });
    const report = discoverSkills({ home, project });
    expect(report.skills.map((s) => s.skill_id)).toEqual(['extract', 'pdfplug:extract']);
    expect(report.shadowed).toEqual([]);
  });

  it('lets the first explicit scope win', () => {
    const { base } = layout({
      'a/s/SKILL.md': skill('s', 'first'),
      'b/s/SKILL.md': skill('s', 'second'),
    });
    const report = discoverSkills({ scopes: [path.join(base, 'a'), path.join(base, 'b')] });
    expect(report.skills.map((s) => s.description)).toEqual(['first']);
    expect(report.shadowed).toHaveLength(1);
  });
});

describe('dedup', () => {
  it('keeps one record for byte-identical copies, with every path as provenance', () => {
    const text = skill('pdf', 'Same bytes everywhere.');
    const { base, home, project } = layout({
      'home/.claude/skills/pdf/SKILL.md': text,
      'project/.claude/skills/pdf/SKILL.md': text,
      'project/.agents/skills/pdf/SKILL.md': text,
    });
    const report = discoverSkills({ home, project });
    const p = (rel: string): string => path.join(base, rel);
    expect(report.skills).toHaveLength(1);
    expect(report.skills[0]!.provenance).toEqual([
      p('home/.claude/skills/pdf/SKILL.md'),
      p('project/.claude/skills/pdf/SKILL.md'),
      p('project/.agents/skills/pdf/SKILL.md'),
    ]);
    expect(report.skills[0]!.revision_id).toBe(sha256Of(Buffer.from(text)));
    expect(report.duplicates).toEqual([
      {
        revision_id: sha256Of(Buffer.from(text)),
        kept: p('home/.claude/skills/pdf/SKILL.md'),
        copies: [
          p('project/.claude/skills/pdf/SKILL.md'),
          p('project/.agents/skills/pdf/SKILL.md'),
        ],
      },
    ]);
    expect(report.shadowed).toEqual([]);
  });

  it('treats copies that differ by BOM or line endings as distinct revisions and near-duplicates', () => {
    const lf = skill('doc', 'One text, three encodings.');
    const crlf = lf.replace(/\n/g, '\r\n');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lf)]);
    const { base } = layout({
      'a/doc/SKILL.md': lf,
      'b/doc/SKILL.md': crlf,
      'c/doc/SKILL.md': bom,
    });
    const report = discoverSkills({ scopes: ['a', 'b', 'c'].map((s) => path.join(base, s)) });
    expect(report.skills).toHaveLength(1);
    expect(report.shadowed).toHaveLength(2);
    expect(report.duplicates).toEqual([]);
    expect(report.near_duplicates).toEqual([
      {
        normalized_sha256: sha256Of(Buffer.from(lf)),
        paths: ['a', 'b', 'c'].map((s) => path.join(base, s, 'doc/SKILL.md')),
      },
    ]);
    const revisions = new Set(report.shadowed.map((s) => s.shadowed));
    expect(revisions.size).toBe(2);
  });

  it('resolveIdentities is deterministic for records in precedence order', () => {
    const { base } = layout({ 's/a/SKILL.md': skill('a'), 's/b/SKILL.md': skill('b') });
    const scopes = resolveScopes({ scopes: [path.join(base, 's')] }).scopes;
    const { files } = enumerateSkillFiles(scopes);
    const records = files.map((f) => {
      const r = loadSkillFile(f);
      if (!r.ok) throw new Error(r.problem.code);
      return r.record;
    });
    expect(resolveIdentities(records)).toEqual(resolveIdentities(records));
    expect(resolveIdentities(records).skills.map((s) => s.skill_id)).toEqual(['a', 'b']);
  });
});

describe('links between scopes', () => {
  it('follows a link from ~/.claude/skills/x into ~/.agents/skills/x (both sanctioned)', () => {
    const { base, home, project } = layout({ 'home/.agents/skills/x/SKILL.md': skill('x') });
    mkdirSync(path.join(home, '.claude', 'skills'), { recursive: true });
    symlinkSync(
      path.join(home, '.agents', 'skills', 'x'),
      path.join(home, '.claude', 'skills', 'x'),
    );
    const report = discoverSkills({ home, project });
    expect(report.skipped).toEqual([]);
    expect(report.skills.map((s) => [s.skill_id, s.scope])).toEqual([['x', 'personal']]);
    expect(report.skills[0]!.real_path).toBe(path.join(base, 'home/.agents/skills/x/SKILL.md'));
    expect(report.skills[0]!.provenance).toEqual([
      path.join(base, 'home/.claude/skills/x/SKILL.md'),
      path.join(base, 'home/.agents/skills/x/SKILL.md'),
    ]);
  });

  it('refuses a link out of every scope and never reads its target', () => {
    // The targets are a FIFO and a folder holding one: reading either would give NOT_A_FILE.
    const { base, home, project } = layout({ 'home/.claude/skills/ok/SKILL.md': skill('ok') });
    mkdirSync(path.join(base, 'outside', 'dir'), { recursive: true });
    execFileSync('mkfifo', [path.join(base, 'outside', 'SKILL.md')]);
    execFileSync('mkfifo', [path.join(base, 'outside', 'dir', 'SKILL.md')]);
    mkdirSync(path.join(home, '.claude', 'skills', 'file-link'));
    symlinkSync(
      path.join(base, 'outside', 'SKILL.md'),
      path.join(home, '.claude', 'skills', 'file-link', 'SKILL.md'),
    );
    symlinkSync(
      path.join(base, 'outside', 'dir'),
      path.join(home, '.claude', 'skills', 'dir-link'),
    );
    const report = discoverSkills({ home, project });
    expect(report.skills.map((s) => s.skill_id)).toEqual(['ok']);
    expect(report.skipped.map((s) => [s.code, path.relative(home, s.path)])).toEqual([
      ['PATH_OUTSIDE_ROOT', '.claude/skills/dir-link'],
      ['PATH_OUTSIDE_ROOT', '.claude/skills/file-link/SKILL.md'],
    ]);
    expect(report.enumerated.some((p) => p.includes('link'))).toBe(false);
  });

  it('refuses a link from a project scope into an unlisted plugin folder', () => {
    const { base, home, project } = layout({
      'home/.claude/plugins/rogue/skills/r/SKILL.md': skill('r'),
      'home/.claude/plugins/installed_plugins.json': JSON.stringify({ version: 2, plugins: {} }),
    });
    mkdirSync(path.join(project, '.claude', 'skills'), { recursive: true });
    symlinkSync(
      path.join(base, 'home/.claude/plugins/rogue/skills/r'),
      path.join(project, '.claude', 'skills', 'r'),
    );
    const report = discoverSkills({ home, project });
    expect(report.skills).toEqual([]);
    expect(report.skipped.map((s) => s.code)).toEqual(['PATH_OUTSIDE_ROOT']);
  });
});

describe('records', () => {
  it('carry the contract fields', () => {
    const { base } = layout({
      's/pdf/SKILL.md': skill(
        'pdf',
        'Extract text.',
        'version: 1.10\nkeywords: [pdf, text]\ntags: docs\nwhen_to_use: with PDFs\n',
      ),
    });
    const [record] = discoverSkills({ scopes: [path.join(base, 's')] }).skills;
    expect(record).toMatchObject({
      skill_id: 'pdf',
      name: 'pdf',
      description: 'Extract text.',
      when_to_use: 'with PDFs',
      version: '1.10',
      keywords: ['pdf', 'text'],
      tags: ['docs'],
      path: path.join(base, 's/pdf/SKILL.md'),
      real_path: path.join(base, 's/pdf/SKILL.md'),
      scope: 'custom',
      scope_path: path.join(base, 's'),
      warnings: [],
      flags: [],
    });
    expect(record!.revision_id).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
