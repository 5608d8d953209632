/**
 * Help for people (issue #12): every command and subcommand has a summary, a description and
 * examples in its --help, and the examples name the command they are for.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS, buildProgram, commandNameOf, run } from '../../src/cli/program.js';
import { CliContext } from '../../src/cli/context.js';
import { runCli } from '../support/cli.js';
import { DEFAULT_POLICY_ID, POLICIES } from '../../src/router/index.js';
import { DEFAULT_FLOOR as ENRICH_DEFAULT_FLOOR } from '../../src/enrich/index.js';
import { MAX_NEED_CHARS } from '../../src/cascade/index.js';
import { SUBSTRATE_TYPES } from '../../src/substrate/index.js';

function leaves(cmd: Command, prefix: string[] = []): string[][] {
  return cmd.commands.flatMap((c) =>
    c.commands.length > 0 ? leaves(c, [...prefix, c.name()]) : [[...prefix, c.name()]],
  );
}

function quietContext(): CliContext {
  return new CliContext({
    stdout: () => undefined,
    stderr: () => undefined,
    env: {},
    cwd: '/',
    stderrIsTTY: false,
  });
}

const program = buildProgram(quietContext());

describe('--help', () => {
  for (const words of leaves(program)) {
    it(`skilldex ${words.join(' ')} --help has a description and examples`, async () => {
      const r = await runCli([...words, '--help']);
      expect(r.code).toBe(0);
      const [usage, , description] = r.stdout.split('\n');
      expect(usage).toContain(`skilldex ${words.join(' ')}`);
      expect(description?.trim().length ?? 0).toBeGreaterThan(20);
      const examples = r.stdout.split('\nExamples:\n')[1];
      expect(examples, 'an Examples: section').toBeDefined();
      expect(examples!).toContain(words[words.length - 1]!);
    });
  }
});

// The help is built before any capability loads (start-up time), so a few limits it quotes are
// written in the CLI: these checks keep them equal to the library's own.
describe('--help quotes the library', () => {
  it('cascade crawl: the need limit', async () => {
    const r = await runCli(['cascade', 'crawl', '--help']);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(`at most ${MAX_NEED_CHARS} characters`);
  });
  it('enrich: the default floor', async () => {
    const r = await runCli(['enrich', '--help']);
    expect(r.stdout).toContain(`(default: ${ENRICH_DEFAULT_FLOOR})`);
  });
  for (const sub of ['read', 'lint'])
    it(`substrate ${sub}: every substrate type, in rank order`, async () => {
      const r = await runCli(['substrate', sub, '--help']);
      expect(r.stdout.replace(/\s+/g, ' ')).toContain(SUBSTRATE_TYPES.join(', '));
    });
  it('index --policy: every policy, the default first', async () => {
    const r = await runCli(['index', '--help']);
    const text = r.stdout.replace(/\s+/g, ' ');
    expect(text).toContain(`(default ${DEFAULT_POLICY_ID}; also`);
    for (const id of POLICIES.keys()) expect(text).toContain(id);
  });
});

describe('help width', () => {
  const helpAt = async (columns: number | undefined): Promise<string> => {
    let out = '';
    const code = await run(['search', '--help'], {
      stdout: (s) => (out += s),
      stderr: () => undefined,
      env: {},
      cwd: '/',
      stderrIsTTY: false,
      ...(columns !== undefined ? { stdoutColumns: columns } : {}),
    });
    expect(code).toBe(0);
    // Commander wraps the usage, description and option lists; the Examples text is ours, as written.
    return out.split('\nExamples:\n')[0]!;
  };
  const widest = (text: string): number => Math.max(...text.split('\n').map((l) => l.length));

  it('wraps to the terminal: narrower columns give narrower help', async () => {
    const narrow = await helpAt(70);
    expect(widest(narrow)).toBeLessThanOrEqual(70);
    const wide = await helpAt(200);
    expect(widest(wide)).toBeGreaterThan(80);
    expect(wide.split('\n').length).toBeLessThan(narrow.split('\n').length);
  });

  it('is 80 columns in a pipe, whatever the terminal of the test runner', async () => {
    const piped = await helpAt(undefined);
    expect(widest(piped)).toBeLessThanOrEqual(80);
    expect(piped).toBe(await helpAt(80));
  });
});

// A run registers only the command its argv names (start-up time): the table must name every
// command the full program has, and a command's help must read the same either way.
describe('one command registered per run', () => {
  it('COMMANDS names exactly the top-level commands, each entry registering its own names', () => {
    const names = program.commands.map((c) => c.name());
    expect(COMMANDS.flatMap((c) => c.names).sort()).toEqual([...names].sort());
    for (const entry of COMMANDS) {
      const one = buildProgram(quietContext(), [entry.names[0]!]);
      expect(one.commands.map((c) => c.name())).toEqual(entry.names);
    }
  });

  it('gives every command the help it has in the full program', () => {
    for (const cmd of program.commands) {
      const one = buildProgram(quietContext(), ['--quiet', cmd.name(), '--help']);
      const same = one.commands.find((c) => c.name() === cmd.name())!;
      expect(same.helpInformation()).toBe(cmd.helpInformation());
    }
  });

  it('finds the command name past the program options, and none for help, version or a typo', () => {
    expect(commandNameOf(['search', 'x'])).toBe('search');
    expect(commandNameOf(['--quiet', '--config', 'search', 'fetch'])).toBe('fetch');
    expect(commandNameOf(['--password-file=p', '-q', 'show', 'a'])).toBe('show');
    expect(commandNameOf(['--help', 'search'])).toBeUndefined();
    expect(commandNameOf(['-V'])).toBeUndefined();
    expect(commandNameOf(['--', 'search'])).toBeUndefined();
    expect(commandNameOf([])).toBeUndefined();
  });

  it('still suggests a command for a typo', async () => {
    const r = await runCli(['serch', 'pdf']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('search');
  });
});

// Descriptions are paragraphs wrapped to the terminal: no line ends early while the next line's
// first word would still have fitted (a source line break showing through), at 80 or 132 columns.
describe('descriptions wrap to the terminal', () => {
  const helpAt = async (words: string[], columns: number): Promise<string> => {
    let out = '';
    await run([...words, '--help'], {
      stdout: (s) => (out += s),
      stderr: () => undefined,
      env: {},
      cwd: '/',
      stderrIsTTY: false,
      stdoutColumns: columns,
    });
    return out;
  };
  const commands = [[], ...leaves(program), ...program.commands.map((c) => [c.name()])];
  it('keeps the rows of a list within 78 columns, so they never wrap at 80', () => {
    const all = (c: Command): Command[] => c.commands.flatMap((x) => [x, ...all(x)]);
    for (const cmd of all(program))
      for (const row of cmd
        .description()
        .split('\n')
        .filter((l) => /^\s+\S/.test(l)))
        expect(row.length, `${cmd.name()}: ${row}`).toBeLessThanOrEqual(78);
  });
  for (const columns of [80, 132]) {
    it(`at ${columns} columns`, async () => {
      for (const words of commands) {
        const help = await helpAt(words, columns);
        // The description: from the line after "Usage:" to the first section heading.
        const lines = help.split('\n');
        const end = lines.findIndex((l, i) => i > 1 && /^[A-Z][a-z]+( [a-z]+)*:$/.test(l));
        const description = lines.slice(2, end === -1 ? undefined : end);
        for (let i = 0; i + 1 < description.length; i++) {
          const [line, next] = [description[i]!, description[i + 1]!];
          // Blank lines end paragraphs; indented lines are rows of a list, kept as written.
          if (line === '' || next === '' || /^\s/.test(line) || /^\s/.test(next)) continue;
          const word = next.trimStart().split(' ')[0]!;
          expect(
            line.length + 1 + word.length,
            `skilldex ${words.join(' ')}: "${line}" then "${word}"`,
          ).toBeGreaterThan(columns);
        }
      }
    });
  }
});
