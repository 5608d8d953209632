/**
 * `cascade build` (docs/cascade.md): the bundled example cascade stays in sync, building the bundled
 * library reaches every skill by its own name, output is deterministic and idempotent, `check`
 * writes nothing, writes stay inside the folder, and bad inputs become coded problems.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  auditCascade,
  buildCascade,
  crawlCascade,
  parseSkillIndex,
} from '../../src/cascade/index.js';
import { discoverSkills } from '../../src/skills/index.js';
import { REPO, runCli, skillMd, tmpDir, tmpTree } from '../support/cli.js';
import { real } from './support.js';

const EXAMPLE_CASCADE = path.join(REPO, 'examples', 'cascade');
const EXAMPLE_SKILLS = path.join(REPO, 'examples', 'skills');

function copyOf(src: string, name = path.basename(src)): string {
  const dir = path.join(real(tmpDir('skilldex-cascade-build-')), name);
  cpSync(src, dir, { recursive: true });
  return dir;
}

function indexFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.startsWith('skill.index'))
        out[path.relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

describe('the bundled example cascade', () => {
  it('is in sync with its skills: build --check reports no change', async () => {
    const r = await runCli(['cascade', 'build', 'examples/cascade', '--check']);
    expect(r.code).toBe(0);
    expect(buildCascade(EXAMPLE_CASCADE, { check: true })).toMatchObject({
      changes: [],
      problems: [],
      check: true,
    });
  });

  it('audits clean and is nested: descents, a combo node and two levels of categories', () => {
    const audit = auditCascade(EXAMPLE_CASCADE);
    expect(audit.problems).toEqual([]);
    expect(audit.reachable).toBe(audit.skills);
    expect(audit.nodes).toContain('data/sql');
    const combo = parseSkillIndex(
      readFileSync(path.join(EXAMPLE_CASCADE, 'engineering/code-review/skill.index'), 'utf8'),
    );
    expect(combo.entries[0]!.key).toBe('.');
  });
});

describe('building the bundled library', () => {
  it('reaches every skill by its own name', () => {
    const dir = copyOf(EXAMPLE_SKILLS);
    const report = buildCascade(dir);
    const skills = discoverSkills({ scopes: [dir] }).skills;
    expect(report.skills).toBe(skills.length);
    expect(skills.length).toBeGreaterThanOrEqual(30);
    for (const s of skills) {
      const crawl = crawlCascade(dir, s.name);
      expect(crawl.outcome, s.name).toBe('hit');
      expect(crawl.hit!.path).toBe(path.relative(dir, path.dirname(s.path)));
      expect(crawl.inconsistencies).toEqual([]);
    }
    expect(auditCascade(dir).problems).toEqual([]);
  });

  it('is deterministic and idempotent: same bytes in a folder of another name, no change on a second build', () => {
    const a = copyOf(EXAMPLE_SKILLS);
    const b = copyOf(EXAMPLE_SKILLS, 'another-name');
    buildCascade(a);
    buildCascade(b);
    expect(indexFiles(a)).toEqual(indexFiles(b));
    const again = buildCascade(a);
    expect(again.changes).toEqual([]);
    expect(again.unchanged).toBe(3);
  });
});

describe('build --check', () => {
  it('lists what would change, writes nothing, and the CLI exits 1', async () => {
    const dir = copyOf(EXAMPLE_CASCADE);
    const skill = path.join(dir, 'data/csv-repair/SKILL.md');
    writeFileSync(
      skill,
      readFileSync(skill, 'utf8')
        .replace('Repair broken CSV files', 'Repair broken TSV and CSV files')
        .replace('  - csv\n', '  - csv\n  - tsv\n'),
    );
    const before = indexFiles(dir);
    const report = buildCascade(dir, { check: true });
    // The new keyword reaches the leaf and the descents above it; the new description only the leaf's overlay.
    expect(report.changes).toEqual([
      { path: 'skill.index', change: 'update' },
      { path: 'skill.index.sha256', change: 'update' },
      { path: 'data/skill.index', change: 'update' },
      { path: 'data/skill.index.sha256', change: 'update' },
      { path: 'data/skill.index.md', change: 'update' },
    ]);
    expect(indexFiles(dir)).toEqual(before);
    const cli = await runCli(['cascade', 'build', dir, '--check', '--json']);
    expect(cli.code).toBe(1);
    expect(JSON.parse(cli.stdout)).toMatchObject({ check: true, changes: report.changes });
    expect((await runCli(['cascade', 'build', dir])).code).toBe(0);
    expect((await runCli(['cascade', 'build', dir, '--check'])).code).toBe(0);
  });

  it('reports files to create in a fresh tree', () => {
    const dir = tmpTree({ 'pdf/SKILL.md': skillMd('pdf', 'PDF tools') });
    expect(buildCascade(dir, { check: true }).changes.map((c) => c.change)).toEqual([
      'create',
      'create',
      'create',
    ]);
    expect(existsSync(path.join(dir, 'skill.index'))).toBe(false);
  });
});

describe('build layout and problems', () => {
  it('writes a . self entry for a folder that is itself a skill, and combo descents above it', () => {
    const dir = tmpTree({
      'SKILL.md': skillMd('library', 'The whole library'),
      'review/SKILL.md': skillMd('review', 'Review code'),
      'review/security/SKILL.md': skillMd('security', 'Review for security'),
    });
    buildCascade(dir);
    const root = parseSkillIndex(readFileSync(path.join(dir, 'skill.index'), 'utf8'));
    expect(root.entries.map((e) => e.key)).toEqual(['.', 'review/']);
    const review = parseSkillIndex(readFileSync(path.join(dir, 'review/skill.index'), 'utf8'));
    expect(review.entries.map((e) => e.key)).toEqual(['.', 'security']);
    expect(crawlCascade(dir, 'library').hit).toEqual({ key: '.', path: '.' });
    expect(crawlCascade(dir, 'review').hit).toEqual({ key: '.', path: 'review' });
    expect(crawlCascade(dir, 'security').hit).toEqual({ key: 'security', path: 'review/security' });
  });

  it('drops a keyword that would capture another skill name, so each name still routes to its skill', () => {
    const dir = tmpTree({
      'data/chart/SKILL.md': skillMd('chart', 'Draw charts'),
      'docs/report-builder/SKILL.md': skillMd(
        'report-builder',
        'Build reports with a chart',
        'keywords:\n  - chart\n  - reports\n',
      ),
    });
    buildCascade(dir);
    const docs = parseSkillIndex(readFileSync(path.join(dir, 'docs/skill.index'), 'utf8'));
    expect(docs.entries[0]!.keywords).not.toContain('chart');
    expect(crawlCascade(dir, 'chart').hit).toEqual({ key: 'chart', path: 'data/chart' });
  });

  it('leaves out folders whose names cannot be keys, and malformed skills, with coded problems', () => {
    const dir = tmpTree({
      'ok/SKILL.md': skillMd('ok', 'Fine'),
      'bad:name/SKILL.md': skillMd('bad-name', 'Colon in the folder'),
      '#hash/inner/SKILL.md': skillMd('inner', 'Below a # folder'),
      'broken/SKILL.md': 'no frontmatter here\n',
    });
    const report = buildCascade(dir);
    expect(report.skills).toBe(1);
    expect(report.problems.map((p) => [p.code, p.path])).toEqual([
      ['KEY_UNWRITABLE', '#hash'],
      ['KEY_UNWRITABLE', 'bad:name'],
      ['FRONTMATTER_MISSING', 'broken/SKILL.md'],
    ]);
    expect(
      parseSkillIndex(readFileSync(path.join(dir, 'skill.index'), 'utf8')).entries.map(
        (e) => e.key,
      ),
    ).toEqual(['ok']);
  });

  it('reports an index the plan no longer needs as STALE_INDEX and keeps it', () => {
    const dir = tmpTree({ 'a/SKILL.md': skillMd('a', 'A skill'), 'old/skill.index': 'gone: x\n' });
    const report = buildCascade(dir);
    expect(report.problems.map((p) => [p.code, p.path])).toEqual([
      ['STALE_INDEX', 'old/skill.index'],
    ]);
    expect(existsSync(path.join(dir, 'old/skill.index'))).toBe(true);
  });

  it('refuses a planted link that would write outside the folder', () => {
    const base = real(tmpDir());
    const dir = path.join(base, 'lib');
    mkdirSync(path.join(dir, 'a'), { recursive: true });
    writeFileSync(path.join(dir, 'a/SKILL.md'), skillMd('a', 'A skill'));
    writeFileSync(path.join(base, 'victim.txt'), 'keep me\n');
    symlinkSync(path.join(base, 'victim.txt'), path.join(dir, 'skill.index'));
    expect(() => buildCascade(dir)).toThrow(expect.objectContaining({ code: 'PATH_OUTSIDE_ROOT' }));
    expect(readFileSync(path.join(base, 'victim.txt'), 'utf8')).toBe('keep me\n');
  });

  it('refuses a missing folder, a file, and unknown options', () => {
    const dir = tmpTree({ 'f.txt': 'x' });
    expect(() => buildCascade(path.join(dir, 'nope'))).toThrow(
      expect.objectContaining({ code: 'FILE_NOT_FOUND' }),
    );
    expect(() => buildCascade(path.join(dir, 'f.txt'))).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => buildCascade(dir, { dryRun: true } as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });
});

// "cascade build reports what cascade audit would report right after it" (issue #12).
describe('build reports what an audit right after it finds', () => {
  const twins = (): string =>
    tmpTree({
      'team-a/skill-creator/SKILL.md': skillMd('skill-creator', 'Create a new skill for team A.'),
      'team-a/pdf-fill/SKILL.md': skillMd('pdf-fill', 'Fill PDF forms.'),
      'team-b/skill-creator/SKILL.md': skillMd('skill-creator', 'Scaffold skills for team B.'),
      'team-b/csv-clean/SKILL.md': skillMd('csv-clean', 'Clean CSV files.'),
    });

  it('gives, with --check and before anything is written, the audit of the cascade it would write', () => {
    const dir = twins();
    const checked = buildCascade(dir, { check: true });
    expect(readdirSync(dir)).not.toContain('skill.index');
    buildCascade(dir);
    const audit = auditCascade(dir);
    expect(audit.clean).toBe(false);
    expect(audit.problems.some((p) => p.code === 'AMBIGUOUS_KEYWORDS')).toBe(true);
    expect(checked.audit).toEqual(audit);
  });

  it('gives the audit of the cascade it wrote, and says so in text and JSON', async () => {
    const dir = twins();
    const built = buildCascade(dir);
    expect(built.audit).toEqual(auditCascade(dir));
    const r = await runCli(['cascade', 'build', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/audit as built: \d+ problems? /);
    expect(r.stdout).toContain('AMBIGUOUS_KEYWORDS');
    const j = await runCli(['cascade', 'build', dir, '--json']);
    expect(JSON.parse(j.stdout).audit).toEqual(JSON.parse(JSON.stringify(auditCascade(dir))));
  });

  it('says clean for the bundled library, and leaves the audit out with --no-audit', async () => {
    const dir = copyOf(EXAMPLE_SKILLS);
    expect(buildCascade(dir).audit).toMatchObject({ clean: true });
    const r = await runCli(['cascade', 'build', dir, '--no-audit', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).audit).toBeUndefined();
    expect(buildCascade(dir, { audit: false }).audit).toBeUndefined();
  });
});
