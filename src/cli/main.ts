/** Process entry of the CLI: binds `run` to the real process streams and environment. */
import { run } from './program.js';
import { ERROR_CODES, SkilldexError, type ExitCode } from '../errors.js';
import { MAX_INPUT_BYTES } from './context.js';

/** Runs the CLI for this process and returns its exit code. */
export async function main(argv: readonly string[]): Promise<ExitCode> {
  // A closed pipe (`skilldex search … | head`) or a stream that cannot take more (ENOBUFS) ends the
  // run quietly: one coded line on stderr, no stack trace, and the refusal exit code.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    process.stderr.write(
      `error OUTPUT_CLOSED: standard output closed (${err.code ?? err.message}); the rest of the output was dropped\n`,
    );
    process.exit(ERROR_CODES.OUTPUT_CLOSED.exit);
  });
  return run(argv, {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    env: process.env,
    cwd: process.cwd(),
    stderrIsTTY: process.stderr.isTTY === true,
    ...(process.stdout.isTTY ? { stdoutColumns: process.stdout.columns } : {}),
    ...(process.stderr.isTTY ? { stderrColumns: process.stderr.columns } : {}),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const c of process.stdin) {
        size += (c as Buffer).length;
        if (size > MAX_INPUT_BYTES) {
          throw new SkilldexError(
            'FILE_TOO_LARGE',
            `standard input is over ${MAX_INPUT_BYTES} bytes`,
            { file: '-' },
          );
        }
        chunks.push(c as Buffer);
      }
      return Buffer.concat(chunks).toString('utf8');
    },
    writeOut: (s) =>
      new Promise<void>((resolve) => {
        // write() returning false means the buffer is past its high-water mark: wait for 'drain'.
        // A failed write ends the process through the 'error' listener above.
        if (process.stdout.write(s)) resolve();
        else process.stdout.once('drain', resolve);
      }),
  });
}
