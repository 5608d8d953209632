/**
 * A fuzz test over the command-line faces (issue 11), in process through `run(argv, io)`: random
 * commands with random (often hostile) arguments, options and environment, over a small hostile
 * tree (bad frontmatter, a link loop, a link out of the tree, binary and oversized files, a
 * zero-byte and a junk catalog, a real one). Whatever the input: the exit code is one of the
 * documented ones (0 ok, 1 nothing usable, 2 refused, 3 integrity) and never 70, stderr never holds
 * a stack trace, and under --json stdout is JSON (one document, or one per line for a batch).
 * `mcp` is left out: it serves until stopped.
 */
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { REPO, runCli, skillMd, tmpTree } from '../support/cli.js';

const EXAMPLES = path.join(REPO, 'examples', 'skills');
let root: string;

beforeAll(async () => {
  root = tmpTree({
    'skills/good/SKILL.md': skillMd('good', 'Extract tables from PDF files.'),
    'skills/bad-yaml/SKILL.md': '---\nname: [unclosed\ndescription: x\n---\n',
    'skills/no-fence/SKILL.md': 'just text\n',
    'skills/binary/SKILL.md': Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0, 1, 2, 0xff, 0xfe]),
    'skills/big/SKILL.md': skillMd('big', 'x '.repeat(600_000)),
    'skills/ctrl/SKILL.md': skillMd('ctrl', 'desc \u001b]0;owned\u0007 \u202e evil'),
    'cascade/skill.index': 'good/: pdf, tables\n: nothing\n../escape: x\n',
    'cascade/good/skill.index': '.: pdf\n',
    'substrate/vocabulary/INDEX.md': '| ID | Description |\n|---|---|\n| a | b |\n',
    'queries.jsonl':
      '{"id":"a","query":"pdf"}\nnot json\n{"id":"a","query":""}\n{"id":2,"query":"tables","relevant":["good"]}\n',
    'junk.sqlite': 'this is not a database at all',
    'empty.sqlite': '',
    'evidence/skill-enrichment/.keep': '',
  });
  mkdirSync(path.join(root, 'loop'));
  symlinkSync(path.join(root, 'loop'), path.join(root, 'loop', 'again'));
  // A link out of the tree, to a harmless folder of its own (never a system folder: commands such
  // as cascade build write inside the folder they are given).
  symlinkSync(
    tmpTree({ 'elsewhere/SKILL.md': skillMd('elsewhere', 'Outside the tree.') }),
    path.join(root, 'skills', 'outside'),
  );
  const r = await runCli([
    'index',
    '--catalog',
    path.join(root, 'real.sqlite'),
    '--scope',
    EXAMPLES,
    '--json',
  ]);
  expect(r.code).toBe(0);
  copyFileSync(path.join(root, 'real.sqlite'), path.join(root, 'spare.sqlite'));
  writeFileSync(path.join(root, 'brief.txt'), 'pdf tables');
});

const hostileString = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '-',
    '--',
    '---',
    '\u0000',
    '\u001b[31m',
    'a/../b',
    'tag:',
    'tag:x',
    '**/*',
    '[',
    '(',
    '\\',
  ),
  fc.constantFrom('pdf', 'tables', 'good', 'pdf-toolkit', 'sha256:' + '0'.repeat(64)),
  fc
    .tuple(
      fc.constantFrom('a', '(', '.', 'pdf ', '\u00e9', '\ud83d\ude00'),
      fc.integer({ min: 1, max: 300_000 }),
    )
    .map(([s, n]) => s.repeat(n)),
);

const pathArg = fc.constantFrom(
  'skills',
  'skills/good',
  'skills/good/SKILL.md',
  'skills/binary/SKILL.md',
  'cascade',
  'substrate',
  'loop',
  'loop/again',
  'skills/outside',
  'missing',
  'queries.jsonl',
  'brief.txt',
  '/dev/null',
  'real.sqlite',
  'spare.sqlite',
  'junk.sqlite',
  'empty.sqlite',
  '.',
);

// Values never name a place outside the temporary tree: an absolute path, a `..` or a `~` could
// point a writing command (cascade build, enrich, index) at the real file system.
const confined = (v: string): string =>
  v === '/dev/null' ? v : v.replace(/^[/~]+/, 'x').replace(/\.\./g, 'x.');
const value = fc
  .oneof(pathArg, hostileString, fc.integer({ min: -5, max: 100 }).map(String))
  .map(confined);

const OPTIONS = [
  '--json',
  '--catalog',
  '--scope',
  '--limit',
  '--batch',
  '--fields',
  '--include-deprecated',
  '--no-telemetry',
  '--no-publish',
  '--policy',
  '--revision',
  '--generation',
  '--context',
  '--need-file',
  '--check',
  '--explain',
  '--depth',
  '--type',
  '--root',
  '--brief',
  '--out',
  '--floor',
  '--home',
  '--project',
  '--max-bytes',
  '--reason',
  '--replacement',
  '--dry-run',
  '--allow-shrink',
  '--bogus',
];

const COMMANDS: string[][] = [
  ['scan'],
  ['cascade', 'crawl'],
  ['cascade', 'build'],
  ['cascade', 'audit'],
  ['substrate', 'read'],
  ['substrate', 'lint'],
  ['index'],
  ['publish'],
  ['deprecate'],
  ['archive'],
  ['restore'],
  ['generations'],
  ['status'],
  ['search'],
  ['fetch'],
  ['eval'],
  ['enrich'],
  ['rollback'],
];

const argvArb = fc
  .tuple(
    fc.constantFrom(...COMMANDS),
    fc.array(fc.oneof(value, fc.constantFrom(...OPTIONS)), { maxLength: 8 }),
    fc.boolean(),
  )
  .map(([cmd, rest, json]) => [...cmd, ...rest, ...(json ? ['--json'] : [])]);

const envArb = fc.record(
  {
    SKILLDEX_CATALOG: pathArg,
    TASK_BRIEF: hostileString.map(confined),
    EVIDENCE_TARGET: fc.constantFrom(
      'evidence/skill-enrichment/run',
      'evidence/skill-enrichment/../x',
    ),
    SKILLDEX_TELEMETRY: fc.constantFrom('off', 'on', ''),
    SKILLDEX_MCP_TOKEN: hostileString.map(confined),
  },
  { requiredKeys: [] },
);

describe('fuzzing the CLI faces', () => {
  it('exits 0-3 with no stack trace, and prints JSON under --json', async () => {
    await fc.assert(
      fc.asyncProperty(argvArb, envArb, async (argv, env) => {
        // Every catalog the fuzz may write to is a throwaway copy of the real one.
        copyFileSync(path.join(root, 'real.sqlite'), path.join(root, 'spare.sqlite'));
        let stdout = '';
        let stderr = '';
        const code = await run(argv, {
          stdout: (s) => {
            stdout += s;
          },
          stderr: (s) => {
            stderr += s;
          },
          env: { HOME: path.join(root, 'home'), XDG_DATA_HOME: path.join(root, 'xdg'), ...env },
          cwd: root,
          stderrIsTTY: false,
          readStdin: () => Promise.resolve('{"id":"s","query":"pdf"}\n'),
        });
        expect(
          [0, 1, 2, 3],
          `exit ${code} for ${JSON.stringify(argv).slice(0, 300)}\n${stderr.slice(0, 500)}`,
        ).toContain(code);
        expect(stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
        // Help and --version print text by design, whatever else the command line holds.
        const helpAsked =
          argv.some((a) => a === '--help' || a === '-h' || a === 'help') ||
          /^\d+\.\d+\.\d+\n$/.test(stdout);
        if (argv.includes('--json') && !helpAsked && stdout.trim() !== '') {
          for (const doc of stdout.trim().startsWith('{\n') || stdout.trim().startsWith('[')
            ? [stdout]
            : stdout.trim().split('\n')) {
            expect(
              () => JSON.parse(doc) as unknown,
              `not JSON for ${JSON.stringify(argv).slice(0, 300)}`,
            ).not.toThrow();
          }
        }
      }),
      { numRuns: 300, seed: Number(process.env['FUZZ_SEED'] ?? 11), endOnFailure: true },
    );
  }, 120_000);
});
