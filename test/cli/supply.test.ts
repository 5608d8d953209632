/**
 * The supply-chain commands in process (issue #28): `lock` writes the lock (same bytes: unchanged),
 * `verify` exits 0 / 1 / 2 with the summary line last, `--json` and SARIF; `index --locked` refuses
 * a drifted library with LOCK_MISMATCH (exit 3) and publishes nothing; `diff` shows a change after a
 * re-index with skill text escaped for the terminal; `diff --generation`; coded refusals; `lint
 * --only security` on the security fixtures.
 */
import { cpSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runCli, tmpDir, writeTree } from '../support/cli.js';
import { skillText } from '../catalog/support.js';

function library(): { dir: string; skills: string } {
  const dir = tmpDir('skilldex-cli-supply-');
  const skills = path.join(dir, 'skills');
  cpSync(path.join(REPO, 'examples', 'skills'), skills, { recursive: true });
  return { dir, skills };
}

const env = (dir: string): Record<string, string> => ({ HOME: dir });

describe('skilldex lock and verify', () => {
  it('locks, verifies (0), names a changed skill and file (1), and prints SARIF', async () => {
    const { dir, skills } = library();
    const run = (argv: string[]) => runCli(argv, { cwd: dir, env: env(dir) });
    const locked = await run(['lock', '--scope', 'skills']);
    expect(locked.code).toBe(0);
    expect(locked.stdout).toMatch(/^locked 36 skill\(s\) into skills\.lock\.json\n$/);
    const again = await run(['lock', '--scope', 'skills', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ skills: 36, changed: false });
    const ok = await run(['verify']);
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim().split('\n').pop()).toMatch(
      /^skilldex verify: 36 locked, 36 unchanged.*: OK$/,
    );
    const file = path.join(skills, 'pdf-toolkit', 'SKILL.md');
    writeFileSync(file, readFileSync(file, 'utf8') + 'edited\n');
    const bad = await run(['verify']);
    expect(bad.code).toBe(1);
    const lines = bad.stdout.trim().split('\n');
    expect(lines[0]).toBe('SKILL_CHANGED pdf-toolkit  skills/pdf-toolkit');
    expect(lines[1]).toMatch(/^ {2}~ SKILL\.md {2}[0-9a-f]{12} → [0-9a-f]{12}$/);
    expect(lines.pop()).toMatch(/1 changed.*: FAILED$/);
    const json = await run(['verify', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      findings: [{ code: 'SKILL_CHANGED', skill_id: 'pdf-toolkit' }],
    });
    const sarif = JSON.parse((await run(['verify', '--format', 'sarif'])).stdout);
    expect(sarif).toMatchObject({ version: '2.1.0', $schema: expect.stringContaining('sarif') });
    expect(sarif.runs[0].tool.driver.rules.map((r: { id: string }) => r.id)).toEqual([
      'SKILL_CHANGED',
      'SKILL_ADDED',
      'SKILL_REMOVED',
      'SKILL_MOVED',
      'SKILL_UNREADABLE',
      'HASH_AMBIGUOUS',
    ]);
    expect(sarif.runs[0].results).toEqual([
      expect.objectContaining({
        ruleId: 'SKILL_CHANGED',
        ruleIndex: 0,
        level: 'error',
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: 'skills/pdf-toolkit/SKILL.md', uriBaseId: '%SRCROOT%' },
              region: { startLine: 1 },
            },
          },
        ],
      }),
    ]);
  });

  it('verify names an unparseable SKILL.md (exit 1) and a gained link by its target (issues 35, 36 L4)', async () => {
    const { dir, skills } = library();
    const run = (argv: string[]) => runCli(argv, { cwd: dir, env: env(dir) });
    expect((await run(['lock', '--scope', 'skills'])).code).toBe(0);
    writeFileSync(path.join(skills, 'pdf-toolkit', 'SKILL.md'), '---\nname: [x\n---\n');
    symlinkSync('/etc/hostname', path.join(skills, 'csv-cleaner', 'notes.md'));
    const bad = await run(['verify']);
    expect(bad.code).toBe(1);
    const lines = bad.stdout.trim().split('\n');
    expect(lines).toContain('SKILL_CHANGED csv-cleaner  skills/csv-cleaner');
    expect(lines).toContain('  + notes.md  link:/etc/hostname');
    expect(lines).toContain('SKILL_UNREADABLE pdf-toolkit  skills/pdf-toolkit');
    expect(bad.stdout).toMatch(
      /its SKILL\.md is there but cannot be used \(MALFORMED_FRONTMATTER, line \d+\)/,
    );
    expect(lines.pop()).toMatch(/1 changed, 0 added, 0 removed, 0 moved, 1 unreadable: FAILED$/);
    // index --locked refuses the same library (LOCK_MISMATCH, exit 3).
    const idx = await run([
      'index',
      '--catalog',
      'c.sqlite',
      '--scope',
      'skills',
      '--locked',
      'skills.lock.json',
    ]);
    expect(idx.code).toBe(3);
    expect(idx.stderr).toContain('LOCK_MISMATCH');
  });

  it('writes the lock to standard output with --out -, and refuses bad arguments (2)', async () => {
    const { dir } = library();
    const run = (argv: string[]) => runCli(argv, { cwd: dir, env: env(dir) });
    const out = await run(['lock', '--scope', 'skills', '--out', '-']);
    expect(JSON.parse(out.stdout)).toMatchObject({ generator: 'skilldex', lockfile_version: 1 });
    expect((await run(['verify'])).code).toBe(2);
    expect((await run(['verify', '--json'])).stdout).toMatch(/"FILE_NOT_FOUND"/);
    writeFileSync(path.join(dir, 'skills.lock.json'), '{"nope": 1}');
    const invalid = await run(['verify', '--json']);
    expect(invalid.code).toBe(2);
    expect(JSON.parse(invalid.stdout).error.code).toBe('LOCK_INVALID');
    expect((await run(['verify', '--format', 'xml'])).code).toBe(2);
  });

  it('index --locked refuses a drifted library (3) and publishes nothing', async () => {
    const { dir, skills } = library();
    const run = (argv: string[]) => runCli(argv, { cwd: dir, env: env(dir) });
    await run(['lock', '--scope', 'skills']);
    writeTree(skills, { 'extra/SKILL.md': skillText('extra', { description: 'Not locked' }) });
    const r = await run([
      'index',
      '--catalog',
      'c.sqlite',
      '--scope',
      'skills',
      '--locked',
      'skills.lock.json',
      '--json',
    ]);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'LOCK_MISMATCH',
      details: { counts: { added: 1 }, findings: [{ code: 'SKILL_ADDED', skill_id: 'extra' }] },
    });
    expect((await run(['generations', '--catalog', 'c.sqlite'])).code).toBe(2);
    const watch = await run([
      'index',
      '--catalog',
      'c.sqlite',
      '--scope',
      'skills',
      '--locked',
      'skills.lock.json',
      '--watch',
    ]);
    expect(watch.code).toBe(2);
    await run(['lock', '--scope', 'skills']);
    const ok = await run([
      'index',
      '--catalog',
      'c.sqlite',
      '--scope',
      'skills',
      '--locked',
      'skills.lock.json',
    ]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/published generation 1/);
  });
});

describe('skilldex diff', () => {
  it('shows the change between two generations after a re-index, escaped for the terminal', async () => {
    const { dir, skills } = library();
    const run = (argv: string[]) => runCli(argv, { cwd: dir, env: env(dir) });
    expect((await run(['index', '--catalog', 'c.sqlite', '--scope', 'skills'])).code).toBe(0);
    const file = path.join(skills, 'pdf-toolkit', 'SKILL.md');
    writeFileSync(file, readFileSync(file, 'utf8') + 'A new line \u001b[31mred\u001b[0m\u200b.\n');
    expect((await run(['index', '--catalog', 'c.sqlite', '--scope', 'skills'])).code).toBe(0);
    const d = await run(['diff', 'pdf-toolkit', '--catalog', 'c.sqlite']);
    expect(d.code).toBe(0);
    expect(d.stdout).toMatch(
      /^diff pdf-toolkit: generation 1: revision [0-9a-f]{12} v1\.3\.0 → working set/,
    );
    expect(d.stdout).toContain('frontmatter: unchanged');
    expect(d.stdout).toContain('body: 0 line(s) removed, 1 added');
    expect(d.stdout).toContain('+A new line \\u001b[31mred\\u001b[0m\\u200b.');
    expect(d.stdout).not.toMatch(/[\u001b\u200b]/);
    const json = JSON.parse(
      (
        await run([
          'diff',
          'pdf-toolkit',
          '--catalog',
          'c.sqlite',
          '--from',
          '1',
          '--to',
          '2',
          '--json',
        ])
      ).stdout,
    );
    expect(json.body.hunks[0].lines).toContain('+A new line \u001b[31mred\u001b[0m\u200b.');
    const g = await run(['diff', '--generation', '1', '2', '--catalog', 'c.sqlite']);
    expect(g.stdout).toMatch(
      /^diff generation 1 \([0-9a-f]{12}\) → generation 2 \([0-9a-f]{12}\): 0 added, 0 removed, 1 changed, 35 unchanged\n {2}~ pdf-toolkit {2}revision [0-9a-f]{12} → [0-9a-f]{12}\n$/,
    );
    expect((await run(['diff', '--catalog', 'c.sqlite'])).code).toBe(2);
    expect((await run(['diff', 'a', 'b', '--catalog', 'c.sqlite'])).code).toBe(2);
    expect((await run(['diff', 'nope', '--catalog', 'c.sqlite'])).code).toBe(3);
    expect((await run(['diff', 'pdf-toolkit', '--from', '9', '--catalog', 'c.sqlite'])).code).toBe(
      2,
    );
    expect((await run(['diff', '--generation', '1', '2', '3', '--catalog', 'c.sqlite'])).code).toBe(
      2,
    );
  });
});

describe('skilldex diff against the disk (issue 35)', () => {
  it('says the disk differs from the catalog after a file is edited, where the catalog alone is identical', async () => {
    const { dir, skills } = library();
    const run = (argv: string[]) => runCli(argv, { cwd: dir, env: env(dir) });
    expect((await run(['index', '--catalog', 'c.sqlite', '--scope', 'skills'])).code).toBe(0);
    const same = await run(['diff', 'pdf-toolkit', '--catalog', 'c.sqlite']);
    expect(same.stdout).toContain('identical in the catalog');
    expect(same.stdout).toContain("on disk: as the catalog's working set has it");
    const file = path.join(skills, 'pdf-toolkit', 'SKILL.md');
    writeFileSync(file, readFileSync(file, 'utf8') + 'Edited after the index.\n');
    writeFileSync(path.join(skills, 'pdf-toolkit', 'zz-setup.sh'), 'echo hi\n');
    const d = await run(['diff', 'pdf-toolkit', '--catalog', 'c.sqlite']);
    expect(d.code).toBe(0);
    expect(d.stdout).toContain('identical in the catalog');
    expect(d.stdout).toContain("the disk differs from the catalog's working set: 2 file(s)");
    expect(d.stdout).toMatch(/ {2}~ SKILL\.md {2}[0-9a-f]{12} → [0-9a-f]{12}/);
    expect(d.stdout).toMatch(/ {2}\+ zz-setup\.sh {2}[0-9a-f]{12}/);
    const json = JSON.parse(
      (await run(['diff', 'pdf-toolkit', '--catalog', 'c.sqlite', '--json'])).stdout,
    );
    expect(json.identical).toBe(true);
    expect(json.disk).toMatchObject({
      path: file,
      status: 'differs',
      changes: [
        { path: 'SKILL.md', change: 'changed' },
        { path: 'zz-setup.sh', change: 'added' },
      ],
    });
    expect(json.disk.disk_revision_id).not.toBe(json.disk.catalog_revision_id);
    // Once indexed, the catalog has seen it: the disk is as the working set.
    expect((await run(['index', '--catalog', 'c.sqlite', '--scope', 'skills'])).code).toBe(0);
    const after = JSON.parse(
      (await run(['diff', 'pdf-toolkit', '--catalog', 'c.sqlite', '--json'])).stdout,
    );
    expect(after.disk.status).toBe('same');
    expect(after.identical).toBe(false);
    // A SKILL.md removed since: missing.
    rmSync(file);
    const gone = JSON.parse(
      (await run(['diff', 'pdf-toolkit', '--catalog', 'c.sqlite', '--json'])).stdout,
    );
    expect(gone.disk.status).toBe('missing');
  });
});

describe('skilldex lint --only security', () => {
  it('reports the security fixtures (1) in text, JSON and SARIF, and refuses an unknown group (2)', async () => {
    const scope = path.join(REPO, 'test', 'lint', 'fixtures', 'security');
    const dir = tmpDir();
    const run = (argv: string[]) => runCli(argv, { cwd: REPO, env: env(dir) });
    const text = await run(['lint', '--scope', scope, '--only', 'security']);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/REMOTE_CODE_PIPE/);
    const json = JSON.parse(
      (await run(['lint', '--scope', scope, '--only', 'security', '--json'])).stdout,
    );
    expect(Object.keys(json.counts.by_code).sort()).toEqual([
      'CREDENTIAL_EXFIL',
      'ENCODED_BLOB',
      'ENCODED_EXEC',
      'EXECUTABLE_DOWNLOAD',
      'HOOK_COMMAND',
      'REMOTE_CODE_PIPE',
      'SUSPICIOUS_URL',
      'WIDE_ALLOWED_TOOLS',
    ]);
    const sarif = JSON.parse(
      (await run(['lint', '--scope', scope, '--only', 'security', '--format', 'sarif'])).stdout,
    );
    expect(
      sarif.runs[0].results.some((r: { ruleId: string }) => r.ruleId === 'CREDENTIAL_EXFIL'),
    ).toBe(true);
    expect((await run(['lint', '--scope', scope, '--only', 'nonsense'])).code).toBe(2);
    const one = JSON.parse(
      (await run(['lint', '--scope', scope, '--only', 'HOOK_COMMAND', '--json'])).stdout,
    );
    expect(Object.keys(one.counts.by_code)).toEqual(['HOOK_COMMAND']);
  });
});
