/**
 * The security group of lint codes (issue #28; src/lint/security*.ts, docs/lint.md "Security"):
 * every rule fires on its fixture (fixtures/security/, one folder per case) at the file and line of
 * the pattern, the look-alikes of `clean/` stay quiet, `--only security` builds no catalog, wide
 * allowed-tools is not reported for the user's own ~/.claude/skills, and on the 1,206 real skills of
 * corpus-real only the findings a reviewer agreed with fire.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintLibrary, type LintFinding } from '../../src/lint/index.js';
import { LINT_GROUPS, selectCodes } from '../../src/lint/only.js';
import {
  SECURITY_CODES,
  allowedToolsOf,
  commandHooks,
  isWideTool,
} from '../../src/lint/security.js';
import { REPO, skillMd, tmpDir, tmpTree } from '../support/cli.js';
import { codeOf } from '../catalog/support.js';

const FIXTURES = path.join(REPO, 'test', 'lint', 'fixtures', 'security');

function lintSecurity(scope: string, home = tmpDir()): LintFinding[] {
  const tmp = tmpDir('skilldex-sec-tmp-');
  const r = lintLibrary({ scopes: [scope], home, project: home, only: ['security'], tmpDir: tmp });
  // No ranking code asked for: no temporary catalog was made.
  expect(readdirSync(tmp)).toEqual([]);
  expect(r.checks.ranking).toBe(false);
  return [...r.findings];
}

const rel = (p: string): string => path.relative(FIXTURES, p).split(path.sep).join('/');

describe('the security group on its fixtures', () => {
  const findings = lintSecurity(FIXTURES);
  const of = (id: string): [string, string, string, number | undefined][] =>
    findings
      .filter((f) => f.skill_ids.includes(id))
      .map((f) => [f.code, f.severity, rel(f.path), f.line]);

  it('reports remote code piped to a shell, an error from a raw IP over http', () => {
    expect(of('remote-pipe')).toEqual([
      ['REMOTE_CODE_PIPE', 'error', 'remote-pipe/SKILL.md', 11],
      ['SUSPICIOUS_URL', 'warning', 'remote-pipe/SKILL.md', 17],
    ]);
    const f = findings.find((x) => x.code === 'REMOTE_CODE_PIPE')!;
    expect(f.details).toMatchObject({ count: 2, insecure_source: true });
  });

  it('reports credential stores read by a skill that sends data, and the webhook it sends to', () => {
    expect(of('credential-exfil')).toEqual([
      ['CREDENTIAL_EXFIL', 'error', 'credential-exfil/scripts/backup.sh', 3],
      ['SUSPICIOUS_URL', 'warning', 'credential-exfil/scripts/backup.sh', 5],
    ]);
  });

  it('reports decoded code run and the blob it hides in', () => {
    expect(of('encoded')).toEqual([
      ['ENCODED_EXEC', 'error', 'encoded/scripts/helper.py', 2],
      ['ENCODED_BLOB', 'warning', 'encoded/scripts/helper.py', 2],
    ]);
  });

  it('reports downloads of programs and downloads made executable', () => {
    expect(of('downloads')).toEqual([['EXECUTABLE_DOWNLOAD', 'warning', 'downloads/SKILL.md', 9]]);
    expect(findings.find((f) => f.code === 'EXECUTABLE_DOWNLOAD')!.details['count']).toBe(2);
  });

  it('reports paste sites, public raw IPs and the cloud metadata address', () => {
    expect(of('suspicious-urls')).toEqual([
      ['SUSPICIOUS_URL', 'warning', 'suspicious-urls/SKILL.md', 8],
    ]);
    const kinds = (
      findings.find((f) => f.skill_ids.includes('suspicious-urls'))!.details['matches'] as {
        kind: string;
      }[]
    ).map((m) => m.kind);
    expect(kinds.sort()).toEqual([
      'cloud metadata address',
      'paste site or drop',
      'raw IP address',
    ]);
  });

  it('reports wide allowed-tools on its frontmatter line', () => {
    expect(of('wide-tools')).toEqual([['WIDE_ALLOWED_TOOLS', 'warning', 'wide-tools/SKILL.md', 4]]);
  });

  it("reports hooks that run commands, in the skill's frontmatter and in its plugin", () => {
    // The frontmatter is scanned like the body (issue 36 L7): the hook's `curl … | sh` is reported too.
    expect(of('hooks')).toEqual([
      ['REMOTE_CODE_PIPE', 'warning', 'hooks/SKILL.md', 9],
      ['HOOK_COMMAND', 'warning', 'hooks/SKILL.md', 4],
    ]);
    expect(of('acme-tool')).toEqual([
      ['HOOK_COMMAND', 'warning', 'plugins/acme/hooks/hooks.json', 4],
    ]);
  });

  it('stays quiet on the look-alikes', () => {
    expect(of('clean')).toEqual([]);
  });

  it('escapes quoted skill text in messages', () => {
    for (const f of findings) expect(f.message).not.toMatch(/[\u0000-\u0008\u001b\u200b]/);
  });
});

describe('the security group on generated cases', () => {
  it('reports hidden characters in a body but not those of emoji', () => {
    const root = tmpTree({
      'smuggle/SKILL.md': skillMd('smuggle', 'Summarises text.').replace(
        'Body of smuggle.',
        'Summarise the text.\u200b\u{E0049}\u{E0067}\u{E006E}\u{E006F}\u{E0072}\u{E0065}\n👩‍💻 ⚠️ done',
      ),
    });
    const f = lintSecurity(root);
    expect(f.map((x) => [x.code, x.line])).toEqual([['HIDDEN_TEXT', 8]]);
    expect(f[0]!.details['characters']).toEqual(
      expect.arrayContaining(['U+200B', 'U+E0049', 'U+E0067']),
    );
    expect(f[0]!.message).not.toMatch(/[\u200b\u{E0049}]/u);
  });

  it("does not report wide allowed-tools in the user's own ~/.claude/skills", () => {
    const home = tmpDir();
    const skills = path.join(home, '.claude', 'skills', 'mine');
    mkdirSync(skills, { recursive: true });
    writeFileSync(
      path.join(skills, 'SKILL.md'),
      skillMd('mine', 'My own shell helper.', 'allowed-tools: Bash\n'),
    );
    const r = lintLibrary({ home, project: tmpDir(), only: ['security'] });
    expect(r.skills).toBe(1);
    expect(r.findings).toEqual([]);
  });

  it('selects codes by group or name and refuses unknown ones', () => {
    expect([...selectCodes(['security'])!]).toEqual([...SECURITY_CODES]);
    expect([...selectCodes(['hidden_text', 'SECURITY'])!].length).toBe(SECURITY_CODES.length);
    expect(LINT_GROUPS['security']).toContain('INSTRUCTION_LIKE');
    expect(codeOf(() => selectCodes(['nonsense']))).toBe('INVALID_ARGUMENT');
  });
});

describe('allowed-tools and hooks parsing', () => {
  it('splits allowed-tools at commas and spaces outside patterns', () => {
    expect(allowedToolsOf('Read Grep Bash(git diff *)')).toEqual([
      'Read',
      'Grep',
      'Bash(git diff *)',
    ]);
    expect(allowedToolsOf('Read, Write, Bash')).toEqual(['Read', 'Write', 'Bash']);
    expect(allowedToolsOf(['Read', 'Bash(*)', 3])).toEqual(['Read', 'Bash(*)']);
    expect(['Bash', 'Bash(*)', 'Bash(*:*)', '*', 'bash( * )'].every(isWideTool)).toBe(true);
    expect(['Bash(git *)', 'Bash(npm run *)', 'Read', 'Bashful'].some(isWideTool)).toBe(false);
  });

  it('finds command hooks at any depth of a hooks object', () => {
    expect(
      commandHooks({
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'a' }] }],
        Stop: [
          {
            hooks: [
              { type: 'prompt', prompt: 'x' },
              { type: 'command', command: 'b' },
            ],
          },
        ],
      }),
    ).toEqual([
      { event: 'PreToolUse', command: 'a' },
      { event: 'Stop', command: 'b' },
    ]);
    expect(commandHooks('not an object')).toEqual([]);
  });
});

const CORPUS = path.join(REPO, '..', 'shared', 'bench', 'corpus-real');

describe.skipIf(!existsSync(CORPUS))(
  'the security group on corpus-real (1,206 real skills)',
  () => {
    it('fires only where a reviewer agreed (docs/lint.md "Security", measured)', () => {
      const findings = lintSecurity(CORPUS);
      const by = (code: string): string[] =>
        findings
          .filter((f) => f.code === code)
          .map((f) => f.skill_ids.join())
          .sort();
      // Official installers piped to sh from https (uv, linkerd, flux), and packages installed from
      // their projects' GitHub URLs (geniml, neurokit2: `uv pip install git+https://…`, issue 36
      // L6): warnings, not errors.
      expect(by('REMOTE_CODE_PIPE')).toEqual([
        'geniml',
        'gitops-workflow',
        'linkerd-patterns',
        'neurokit2',
        'uv-package-manager',
      ]);
      expect(
        findings
          .filter((f) => f.code === 'REMOTE_CODE_PIPE')
          .every((f) => f.severity === 'warning'),
      ).toBe(true);
      // `allowed-tools: Read Write Edit Bash` in 23 scientific skills and `Bash` in one more.
      expect(by('WIDE_ALLOWED_TOOLS')).toHaveLength(24);
      // The description "You MUST use this before any creative work" (an existing check).
      expect(by('INSTRUCTION_LIKE')).toEqual(['brainstorming']);
      expect(new Set(findings.map((f) => f.code))).toEqual(
        new Set(['REMOTE_CODE_PIPE', 'WIDE_ALLOWED_TOOLS', 'INSTRUCTION_LIKE']),
      );
    });
  },
);
