/**
 * Hostile input to the command line (issue 11): inputs of any size end in a result or a coded
 * error, `search --batch` writes with backpressure, answers bad lines with error lines and ends
 * quietly when its reader goes away, and a damaged catalog is CATALOG_CORRUPT with the JSON error
 * object on stdout under --json — commander's own parse errors included.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { MAX_NEED_CHARS } from '../../src/cascade/index.js';
import { REPO, runBin, runCli, tmpDir } from '../support/cli.js';
import { newCatalogPath } from '../catalog/support.js';

const EXAMPLES = path.join(REPO, 'examples', 'skills');
const CASCADE = path.join(REPO, 'examples', 'cascade');
const MIB = 1024 * 1024;
let catalog: string;

beforeAll(async () => {
  catalog = newCatalogPath();
  expect((await runCli(['index', '--catalog', catalog, '--scope', EXAMPLES, '--json'])).code).toBe(
    0,
  );
});

/** Runs the CLI in process with a stdin text and an optional backpressured writer. */
async function runIo(
  argv: string[],
  opts: { stdin?: string; writeOut?: (s: string) => Promise<void> } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s;
    },
    env: { HOME: '/nonexistent-home' },
    cwd: REPO,
    stderrIsTTY: false,
    readStdin: () => Promise.resolve(opts.stdin ?? ''),
    ...(opts.writeOut ? { writeOut: opts.writeOut } : {}),
  });
  return { code, stdout, stderr };
}

function expectCoded(
  r: { code: number; stdout: string; stderr: string },
  code: string,
  exit: number,
): void {
  expect(r.code).toBe(exit);
  expect(JSON.parse(r.stdout)).toMatchObject({ error: { code } });
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

describe('a 1 MiB need for cascade crawl', () => {
  const huge = 'pdf('.repeat(MIB / 4);

  it('as an argument, a file or standard input is INVALID_QUERY (exit 2), never a stack trace', async () => {
    expectCoded(await runIo(['cascade', 'crawl', CASCADE, huge, '--json']), 'INVALID_QUERY', 2);
    const file = path.join(tmpDir(), 'need.txt');
    writeFileSync(file, huge);
    expectCoded(
      await runIo(['cascade', 'crawl', CASCADE, '--need-file', file, '--json']),
      'INVALID_QUERY',
      2,
    );
    expectCoded(
      await runIo(['cascade', 'crawl', CASCADE, '--need-file', '-', '--json'], { stdin: huge }),
      'INVALID_QUERY',
      2,
    );
  });

  it('a need at the limit is still crawled; NEED and --need-file together are refused', async () => {
    const r = await runIo(['cascade', 'crawl', CASCADE, 'x'.repeat(MAX_NEED_CHARS), '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ outcome: 'no match' });
    const fromStdin = await runIo(['cascade', 'crawl', CASCADE, '--need-file', '-', '--json'], {
      stdin: 'pdf-forms\n',
    });
    expect(fromStdin.code).toBe(0);
    expectCoded(
      await runIo(['cascade', 'crawl', CASCADE, 'pdf', '--need-file', '-', '--json']),
      'INVALID_ARGUMENT',
      2,
    );
  });
});

describe('search --batch', () => {
  function batchFile(n: number): string {
    const file = path.join(tmpDir(), 'q.jsonl');
    const words = ['pdf tables', 'kubernetes deploy', 'regex', 'sql query', 'email'];
    writeFileSync(
      file,
      Array.from({ length: n }, (_, i) =>
        JSON.stringify({ id: `q${i}`, query: words[i % words.length] }),
      ).join('\n') + '\n',
    );
    return file;
  }

  it('--fields ranking prints only id and the ranked skill ids, the same ranking as the full form', async () => {
    const file = batchFile(5);
    const args = [
      'search',
      '--batch',
      file,
      '--catalog',
      catalog,
      '--no-telemetry',
      '--limit',
      '5',
    ];
    const full = (await runCli(args)).stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; ranking: string[] });
    const compact = await runCli([...args, '--fields', 'ranking']);
    expect(compact.code).toBe(0);
    const lines = compact.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(5);
    for (const [i, l] of lines.entries()) {
      expect(Object.keys(l)).toEqual(['id', 'ranking', 'abstain', 'min_confidence']);
      expect(l['ranking']).toEqual(full[i]!.ranking);
    }
    expectCoded(await runCli([...args, '--fields', 'everything', '--json']), 'INVALID_ARGUMENT', 2);
  });

  it('every line carries abstain and min_confidence, judged as a single search, and honours --min-confidence (issue 33 item 8)', async () => {
    const file = path.join(tmpDir(), 'q.jsonl');
    const queries = ['merge two pdf files into one', 'tell me a joke about cats and the weather'];
    writeFileSync(
      file,
      [...queries.map((query, i) => JSON.stringify({ id: `q${i}`, query })), 'not json'].join(
        '\n',
      ) + '\n',
    );
    type Line = {
      id: string | null;
      ranking: string[];
      candidates?: { confidence: number }[];
      abstain: boolean;
      min_confidence: number;
      error?: { code: string };
    };
    const batch = async (extra: string[]): Promise<Line[]> => {
      const r = await runCli([
        'search',
        '--batch',
        file,
        '--catalog',
        catalog,
        '--no-telemetry',
        ...extra,
      ]);
      expect(r.code, r.stderr).toBe(0);
      return r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Line);
    };
    const single = async (query: string, extra: string[]) => {
      const r = await runCli([
        'search',
        query,
        '--catalog',
        catalog,
        '--no-telemetry',
        '--limit',
        '10',
        '--json',
        ...extra,
      ]);
      return JSON.parse(r.stdout) as { abstain: boolean; min_confidence: number };
    };
    for (const extra of [[], ['--min-confidence', '0.95'], ['--min-confidence', '0']]) {
      for (const fields of ['full', 'ranking']) {
        const lines = await batch([...extra, '--fields', fields]);
        expect(lines).toHaveLength(3);
        for (const [i, query] of queries.entries()) {
          const one = await single(query, extra);
          expect(lines[i]!.min_confidence, `${query} ${extra.join(' ')}`).toBe(one.min_confidence);
          expect(lines[i]!.abstain, `${query} ${extra.join(' ')}`).toBe(one.abstain);
        }
        // The line that cannot be used abstains, against the same floor.
        expect(lines[2]).toMatchObject({
          id: null,
          abstain: true,
          error: { code: expect.any(String) },
        });
        expect(lines[2]!.min_confidence).toBe(lines[0]!.min_confidence);
      }
    }
    // The floors differ, and so do the answers: the policy's 0.6 by default, the flag's otherwise.
    const def = await batch([]);
    expect(def.map((l) => l.min_confidence)).toEqual([0.6, 0.6, 0.6]);
    expect(def.map((l) => l.abstain)).toEqual([false, true, true]);
    const high = await batch(['--min-confidence', '0.95']);
    expect(high[0]!.min_confidence).toBe(0.95);
    expect(high[0]!.abstain).toBe(!high[0]!.candidates!.some((c) => c.confidence >= 0.95));
    const zero = await batch(['--min-confidence', '0']);
    expect(zero.slice(0, 2).map((l) => l.abstain)).toEqual([false, false]);
  });

  it('awaits the writer between lines: never more than one write outstanding', async () => {
    let outstanding = 0;
    let most = 0;
    const lines: string[] = [];
    const writeOut = async (s: string): Promise<void> => {
      outstanding++;
      most = Math.max(most, outstanding);
      await new Promise((resolve) => setImmediate(resolve));
      lines.push(s);
      outstanding--;
    };
    const r = await runIo(
      [
        'search',
        '--batch',
        batchFile(40),
        '--catalog',
        catalog,
        '--no-telemetry',
        '--fields',
        'ranking',
      ],
      { writeOut },
    );
    expect(r.code).toBe(0);
    expect(lines).toHaveLength(40);
    expect(most).toBe(1);
    expect(r.stdout).toBe('');
  });

  it('a reader that goes away ends the batch silently: exit 0, nothing on stderr (child process)', async () => {
    // A batch whose output is far larger than a pipe buffer: the reader takes one chunk and closes.
    const file = batchFile(3_000);
    const child = spawn(
      process.execPath,
      [
        path.join(REPO, 'bin', 'skilldex.js'),
        'search',
        '--batch',
        file,
        '--catalog',
        catalog,
        '--no-telemetry',
        '--limit',
        '20',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('close', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    // A closed pipe is the reader having enough, not an error (issue 35).
    expect(code).toBe(0);
    expect(stderr).toBe('');
  }, 90_000);
});

describe('a damaged catalog', () => {
  // Overwrites every page after the first (the tables and indexes) with junk, keeping the header
  // and schema page: the file opens, queries then hit SQLITE_CORRUPT, whatever the page size.
  function corruptCopy(): string {
    const file = newCatalogPath();
    copyFileSync(catalog, file);
    const bytes = readFileSync(file);
    const size = bytes.readUInt16BE(16);
    const page = size === 1 ? 65536 : size;
    for (let o = page; o < bytes.length; o += page) bytes.fill(0xa5, o + 8, o + page - 8);
    writeFileSync(file, bytes);
    return file;
  }

  it.each([
    ['search', (f: string) => ['search', 'pdf', '--catalog', f, '--no-telemetry', '--json']],
    ['status', (f: string) => ['status', '--catalog', f, '--json']],
    ['index', (f: string) => ['index', '--catalog', f, '--scope', EXAMPLES, '--json']],
    [
      'batch',
      (f: string) => ['search', '--batch', '-', '--catalog', f, '--no-telemetry', '--json'],
    ],
  ])('%s is CATALOG_CORRUPT (exit 3) with the JSON error object on stdout', async (_what, argv) => {
    const file = corruptCopy();
    const r = await runIo(argv(file), { stdin: '{"id":"a","query":"pdf"}\n' });
    expectCoded(r, 'CATALOG_CORRUPT', 3);
    expect((JSON.parse(r.stdout) as { error: { message: string } }).error.message).toContain(file);
  });

  it('a zero-byte catalog file is CATALOG_CORRUPT for index, and is left as it was', async () => {
    const file = path.join(tmpDir(), 'catalog.sqlite');
    writeFileSync(file, '');
    expectCoded(
      await runCli(['index', '--catalog', file, '--scope', EXAMPLES, '--json']),
      'CATALOG_CORRUPT',
      3,
    );
    expectCoded(await runCli(['search', 'pdf', '--catalog', file, '--json']), 'CATALOG_CORRUPT', 3);
    expect(statSync(file).size).toBe(0);
  });
});

describe('every error under --json is the JSON error object on stdout', () => {
  it.each([
    ['an unknown option', ['search', 'pdf', '--bogus', '--json']],
    ['a missing option value', ['search', 'pdf', '--json', '--catalog']],
    ['a missing required option', ['fetch', 'pdf-toolkit', '--json']],
    ['an unknown command', ['serach', '--json']],
    ['a bad number', ['search', 'pdf', '--limit', '51', '--json']],
  ])('%s', async (_what, argv) => {
    expectCoded(await runCli(argv), 'INVALID_ARGUMENT', 2);
  });
});

describe('a usage error in text mode names its code too', () => {
  it.each([
    ['an unknown option', ['search', 'pdf', '--bogus'], "unknown option '--bogus'"],
    [
      'a missing option value',
      ['search', 'pdf', '--catalog'],
      "'--catalog <file>' argument missing",
    ],
    ['an extra argument', ['lint', 'some-folder'], "too many arguments for 'lint'"],
    ['an unknown command', ['serach'], "unknown command 'serach'"],
  ])('%s', async (_what, argv, says) => {
    const r = await runCli(argv);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error INVALID_ARGUMENT: /);
    expect(r.stderr).toContain(says);
    expect(r.stderr).toContain('(run with --help for usage)');
  });
});

describe('a --scope that is not a folder is refused by lint and eval --triggers, not reported on as empty', () => {
  const dir = tmpDir('skilldex-scope-');
  const file = path.join(dir, 'a-file.md');
  writeFileSync(file, 'not a folder\n');
  it.each([
    ['lint, a missing folder', ['lint', '--scope', path.join(dir, 'nope')], 'linted'],
    ['lint, a file', ['lint', '--scope', file], 'linted'],
    [
      'eval --triggers, a missing folder',
      ['eval', '--triggers', '--scope', path.join(dir, 'nope')],
      'evaluated',
    ],
    ['eval --triggers, a file', ['eval', '--triggers', '--scope', file], 'evaluated'],
  ])('%s', async (_what, argv, did) => {
    const r = await runCli([...argv, '--json']);
    expectCoded(r, 'INVALID_ARGUMENT', 2);
    const scope = argv[argv.length - 1]!;
    expect((JSON.parse(r.stdout) as { error: { message: string } }).error.message).toBe(
      `--scope ${scope} is not a folder; nothing was ${did}`,
    );
  });

  it('scan still lists such a scope among its scopes (its report is about the scopes)', async () => {
    const r = await runCli(['scan', '--scope', path.join(dir, 'nope'), '--json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(path.join(dir, 'nope'));
  });
});

describe('an option that takes a value, given another option instead (the value left out)', () => {
  it.each([
    [
      'search --batch --no-telemetry',
      ['search', '--batch', '--no-telemetry'],
      '--batch',
      '--no-telemetry',
    ],
    [
      'search --catalog --no-telemetry',
      ['search', 'pdf', '--catalog', '--no-telemetry'],
      '--catalog',
      '--no-telemetry',
    ],
    ['the global --config', ['--config', '--quiet', 'status'], '--config', '--quiet'],
    [
      'a repeated option',
      ['lint', '--scope', 'skills', '--scope', '--fix-suggestions'],
      '--scope',
      '--fix-suggestions',
    ],
  ])(
    '%s is INVALID_ARGUMENT naming both, not a file of that name',
    async (_what, argv, option, value) => {
      const r = await runCli(argv);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `error INVALID_ARGUMENT: ${option} needs a value, but the next argument is the option ${value}`,
      );
    },
  );

  it('a value that only starts with dashes is a value', async () => {
    const dir = tmpDir('skilldex-dash-');
    const r = await runCli(['search', 'pdf', '--catalog', path.join(dir, '--not-an-option.db')]);
    expect(r.stderr).not.toContain('needs a value');
  });

  it('the hook still answers such a command line with silence, exit 0', () => {
    const home = tmpDir('skilldex-dash-hook-');
    const r = runBin(['hook', 'claude-code', '--max', '--catalog', 'x.db'], {
      cwd: home,
      env: { HOME: home, XDG_STATE_HOME: '' },
      input: JSON.stringify({ prompt: 'merge pdf files' }),
    });
    expect({ code: r.code, out: r.stdout, err: r.stderr }).toEqual({ code: 0, out: '', err: '' });
  });
});
