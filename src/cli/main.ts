/** Process entry of the CLI: binds `run` to the real process streams and environment. */
import { run } from './program.js';
import type { ExitCode } from '../index.js';

/** Runs the CLI for this process and returns its exit code. */
export async function main(argv: readonly string[]): Promise<ExitCode> {
  // A closed pipe (`skilldex search … | head`) is a normal end, not a crash.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  return run(argv, {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    env: process.env,
    cwd: process.cwd(),
    stderrIsTTY: process.stderr.isTTY === true,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  });
}
