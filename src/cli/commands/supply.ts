/**
 * Supply-chain commands (issue #28, docs/supply-chain.md): `lock` pins the library's skills in a
 * lock file, `verify` checks the library against one (text, `--json`, or SARIF 2.1.0 for code
 * scanning), `diff` shows what changed in a skill or between generations. Each parses its options,
 * makes one library call and renders the report (render/supply.ts); src/supply loads inside the
 * action, never at start-up.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { SkilldexError, type ExitCode } from '../../errors.js';
import type { LockReport, VerifyReport } from '../../internal.js';
import type { DiscoverOptions } from '../../skills/index.js';
import { action, type CliContext, type CommandEntry } from '../context.js';
import { progressLine } from '../progress.js';
import { CATALOG_HELP, addScopeOptions, discoverOptions, type ScopeFlags } from '../options.js';

/** The supply-chain commands by name. */
export const SUPPLY_COMMANDS: readonly CommandEntry[] = [
  { names: ['lock'], register: registerLock },
  { names: ['verify'], register: registerVerify },
  { names: ['diff'], register: registerDiff },
];

/** `lock`: write the lock file of the skills in the scopes. */
function registerLock(program: Command, ctx: CliContext): void {
  addScopeOptions(
    program
      .command('lock')
      .summary('pin every skill of the scopes in a lock file (digests of every file, git origin)')
      .description(
        'Write a lock file (skills.lock.json by default) recording, for every skill of the scopes: its\n' +
          'id, scope, folder, revision_id (the SKILL.md sha256), a digest over the whole folder, every\n' +
          "file's sha256, its version, and its git origin (remote URL without credentials, commit) when\n" +
          'the folder is in a git work tree. The same library gives the same bytes: commit the file and\n' +
          'run skilldex verify in CI. Paths are relative to the lock file.',
      ),
  )
    .option('--out <file>', 'where to write the lock ("-" for standard output)', 'skills.lock.json')
    .option('--no-git', 'do not record git origins')
    .option('--json', 'print the report (with the lock) as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex lock --scope skills\n  skilldex lock --scope .claude/skills --out .claude/skills.lock.json\n  skilldex lock --scope skills --out - | less\n' +
        '\nExit codes: 0 written, 1 no skill found, 2 refused (bad arguments, the file cannot be written).',
    )
    .action(
      action(ctx, async (o: ScopeFlags & { out: string; git?: boolean; json?: boolean }) => {
        const { buildLock } = await import('../../supply/index.js');
        const toStdout = o.out === '-';
        const file = path.resolve(ctx.io.cwd, toStdout ? 'skills.lock.json' : o.out);
        const progress = progressLine(ctx.io, 'lock: reading skills', {
          enabled: o.json !== true && !toStdout && !ctx.quiet,
        });
        let report: LockReport;
        try {
          report = buildLock({
            ...discoverOptions(o, ctx),
            lockFile: file,
            gitOrigin: o.git !== false,
            onProgress: progress.update,
          });
        } finally {
          progress.done();
        }
        let changed = true;
        if (!toStdout) changed = await writeLock(file, report.text);
        if (o.json)
          ctx.json({ ...report, text: undefined, lock_file: toStdout ? '-' : file, changed });
        else if (toStdout) await ctx.write(report.text);
        else {
          const { renderLock } = await import('./supply-render.js');
          ctx.out(renderLock(report, path.relative(ctx.io.cwd, file) || file, changed));
        }
        return report.skills > 0 ? 0 : 1;
      }),
    );
}

// Writes the lock atomically into its folder; false when the file already holds these bytes.
async function writeLock(file: string, text: string): Promise<boolean> {
  const { readTextCapped, writeInside } = await import('../../fsx/index.js');
  const before = readTextCapped(file, { maxBytes: 64 * 1024 * 1024 });
  if (before.ok && before.text === text) return false;
  writeInside(path.dirname(file), path.basename(file), text);
  return true;
}

/** `verify`: check the library against a lock file. */
function registerVerify(program: Command, ctx: CliContext): void {
  addScopeOptions(
    program
      .command('verify')
      .summary('check that every locked skill is present with the same digests (CI gate)')
      .description(
        'Compare the skills of the scopes with a lock file: exit 0 when every locked skill is there with\n' +
          'the same files, else 1 with one finding per skill: SKILL_CHANGED (which files), SKILL_ADDED,\n' +
          'SKILL_REMOVED, SKILL_MOVED, and a one-line summary last. Reads skilldex skills.lock.json,\n' +
          'vercel-labs skills-lock.json (its computedHash, recomputed: a mismatch is SKILL_CHANGED; a match\n' +
          'is HASH_AMBIGUOUS, never a pass, as that hash cannot pin which file holds which bytes: re-lock\n' +
          'with skilldex lock) and APM apm.lock.yaml (per-file\n' +
          "hashes). Without --scope: a skilldex lock's own scopes, an APM lock's deployment folders, else\n" +
          "the default scopes; the project folder defaults to the lock's folder.",
      ),
  )
    .option('--lock <file>', 'the lock file', 'skills.lock.json')
    .option('--format <format>', 'text, json or sarif (SARIF 2.1.0 for code scanning)', 'text')
    .option('--json', 'print the report as JSON (same as --format json)')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex verify\n  skilldex verify --lock .claude/skills.lock.json --json\n  skilldex verify --format sarif > verify.sarif\n  skilldex verify --lock skills-lock.json     # a vercel-labs skills lock\n' +
        '\nExit codes: 0 as locked, 1 findings, 2 refused (no or malformed lock file: LOCK_INVALID).',
    )
    .action(
      action(ctx, async (o: ScopeFlags & { lock: string; format: string; json?: boolean }) => {
        const format = o.json ? 'json' : o.format;
        if (!['text', 'json', 'sarif'].includes(format))
          throw new SkilldexError(
            'INVALID_ARGUMENT',
            `--format must be text, json or sarif, got ${JSON.stringify(o.format)}`,
            { option: '--format', value: o.format },
          );
        const { verifyLock } = await import('../../supply/index.js');
        const lockFile = path.resolve(ctx.io.cwd, o.lock);
        const progress = progressLine(ctx.io, 'verify: reading skills', {
          enabled: format === 'text' && !ctx.quiet,
        });
        let report: VerifyReport;
        try {
          report = verifyLock({
            ...verifyScopes(o, ctx, lockFile),
            lockFile,
            onProgress: progress.update,
          });
        } finally {
          progress.done();
        }
        if (format === 'json') ctx.json(report);
        else if (format === 'sarif') ctx.json(await verifySarif(report, ctx, program));
        else {
          const { renderVerify } = await import('./supply-render.js');
          ctx.out(renderVerify(report));
        }
        return report.ok ? 0 : 1;
      }),
    );
}

// The discovery options of `verify`: the flags, with the lock's folder as the default project.
function verifyScopes(o: ScopeFlags, ctx: CliContext, lockFile: string): DiscoverOptions {
  return discoverOptions({ ...o, project: o.project ?? path.dirname(lockFile) }, ctx);
}

// The verify report as SARIF: one result per finding, on the skill's SKILL.md (a removed skill's on the lock file).
async function verifySarif(r: VerifyReport, ctx: CliContext, program: Command): Promise<object> {
  const { sarifLogOf } = await import('../../lint/index.js');
  const { VERIFY_CODES } = await import('../../supply/index.js');
  return sarifLogOf({
    toolName: 'skilldex verify',
    toolVersion: program.version() ?? '0.0.0',
    baseDir: ctx.io.cwd,
    rules: Object.entries(VERIFY_CODES).map(([id, text]) => ({ id, text, level: 'error' })),
    findings: r.findings.map((f) => ({
      ruleId: f.code,
      level: 'error',
      message: f.message,
      path: f.path ?? r.lock_file,
      properties: {
        skill_id: f.skill_id,
        ...(f.files !== undefined ? { files: f.files } : {}),
        folder: f.folder,
        locked_folder: f.locked_folder,
      },
    })),
  });
}

/** `diff`: what changed in a skill between two states, or between two generations. */
function registerDiff(program: Command, ctx: CliContext): void {
  program
    .command('diff [args...]')
    .summary('show what changed in a skill (frontmatter, body, files), or between two generations')
    .description(
      'diff SKILL_ID: frontmatter fields one by one, the body as a unified diff and supporting files\n' +
        'added, removed or changed (by digest), between two states the catalog has seen: --from and\n' +
        '--to each name a generation (sequence number, id or 8+ hex digits, or "published"), a revision\n' +
        'of the skill (sha256:… or 8+ hex digits) or "working" (what the next publish serves). Default:\n' +
        '--to working, --from the latest earlier state that differs. The body comes from the texts the\n' +
        "catalog keeps (skilldex index --keep-revisions, default 10 per skill). Last, the skill's folder\n" +
        "on disk is compared with the catalog's working set by digest: a file edited since the last\n" +
        'index is named there ("the disk differs from the catalog").\n' +
        'diff --generation [A] [B]: the skills added, removed and changed from generation A to B\n' +
        '(default: the published generation and the one before it; "working" allowed).',
    )
    .option('--from <state>', 'the older state: generation, revision or "working"')
    .option('--to <state>', 'the newer state (default: working)')
    .option('--generation', 'compare two generations: diff --generation A B')
    .option('--catalog <file>', CATALOG_HELP)
    .option('--json', 'print the report as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex index --no-publish && skilldex diff pdf-toolkit --from published\n  skilldex diff pdf-toolkit --from 3 --to 5\n  skilldex diff pdf-toolkit --from sha256:1a2b3c4d\n  skilldex diff --generation 4 5\n  skilldex diff --generation published working --json\n' +
        '\nExit codes: 0 compared, 2 refused (unknown generation or revision, bad arguments), 3 unknown skill (SKILL_NOT_FOUND).',
    )
    .action(
      action(
        ctx,
        async (
          args: string[],
          o: { from?: string; to?: string; generation?: boolean; catalog?: string; json?: boolean },
        ): Promise<ExitCode> => {
          const catalog = ctx.settings({ catalog: o.catalog }).catalog.value;
          const { diffGenerations, diffSkill } = await import('../../supply/index.js');
          const render = await import('./supply-render.js');
          if (o.generation) {
            if (args.length > 2 || ((o.from ?? o.to) !== undefined && args.length > 0))
              throw new SkilldexError(
                'INVALID_ARGUMENT',
                'diff --generation takes at most two generations (A B), or --from and --to',
                { argument: args[2] ?? args[0] },
              );
            const from = o.from ?? (args.length === 2 ? args[0] : undefined);
            const to = o.to ?? (args.length === 2 ? args[1] : args[0]);
            const r = diffGenerations({
              catalog,
              ...(from !== undefined ? { from } : {}),
              ...(to !== undefined ? { to } : {}),
            });
            if (o.json) ctx.json(r);
            else ctx.out(render.renderGenerationDiff(r));
            return 0;
          }
          if (args.length !== 1)
            throw new SkilldexError(
              'INVALID_ARGUMENT',
              args.length === 0
                ? 'diff needs a SKILL_ID (or --generation A B)'
                : `diff takes one SKILL_ID, got ${args.length}`,
              { arguments: args },
            );
          const r = diffSkill({
            catalog,
            skill_id: args[0]!,
            ...(o.from !== undefined ? { from: o.from } : {}),
            ...(o.to !== undefined ? { to: o.to } : {}),
          });
          if (o.json) ctx.json(r);
          else ctx.out(render.renderSkillDiff(r));
          return 0;
        },
      ),
    );
}
