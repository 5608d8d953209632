/**
 * Help for people (issue #12): every command and subcommand has a summary, a description and
 * examples in its --help, and the examples name the command they are for.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { CliContext } from '../../src/cli/context.js';
import { runCli } from '../support/cli.js';

function leaves(cmd: Command, prefix: string[] = []): string[][] {
  return cmd.commands.flatMap((c) =>
    c.commands.length > 0 ? leaves(c, [...prefix, c.name()]) : [[...prefix, c.name()]],
  );
}

const program = buildProgram(
  new CliContext({
    stdout: () => undefined,
    stderr: () => undefined,
    env: {},
    cwd: '/',
    stderrIsTTY: false,
  }),
);

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
