/** Process entry of the CLI: binds `run` to the real process streams and environment. */
import { fstatSync } from 'node:fs';
import { run } from './program.js';
import { ERROR_CODES, type ExitCode } from '../errors.js';
import { readStdinCapped, writeAllSync } from './context.js';

/**
 * Ends the run when output cannot be written. A closed pipe (EPIPE: `skilldex --help | head -1`)
 * is the reader saying it has enough, not an error: exit 0, silently (issue 35). Anything else
 * (ENOBUFS, a stream already ended) is OUTPUT_CLOSED: one line on stderr, its exit code.
 */
function outputClosed(err: NodeJS.ErrnoException): never {
  if (err.code === 'EPIPE') process.exit(0);
  process.stderr.write(
    `error OUTPUT_CLOSED: standard output closed (${err.code ?? err.message}); the rest of the output was dropped\n`,
  );
  process.exit(ERROR_CODES.OUTPUT_CLOSED.exit);
}

/**
 * Whether descriptor `fd` may be a terminal: a character device, or a descriptor fstat cannot
 * describe (Node's stream then decides). A pipe or a file is not, and needs no stream to say so.
 */
function mayBeTerminal(fd: 1 | 2): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return true;
  }
}

/**
 * Standard output for one run. A terminal (and any character device) goes through
 * `process.stdout`. A pipe or a file is written with `fs.writeSync` on descriptor 1, which is what
 * Node does for files and, on Linux, for pipes anyway: creating `process.stdout` loads Node's
 * stream modules, about 3 ms of a one-shot command that prints to an agent or a script
 * (bench/results/startup.md). A descriptor that would block (EAGAIN: a pipe its reader made
 * non-blocking) hands the rest of the run to `process.stdout`, which queues; nothing is reordered,
 * since every earlier write has completed.
 */
class StandardOutput {
  private stream: NodeJS.WriteStream | undefined;
  private readonly direct: boolean;
  constructor() {
    this.direct = !mayBeTerminal(1);
  }

  /** Whether standard output is a terminal. */
  get isTTY(): boolean {
    return !this.direct && this.open().isTTY === true;
  }

  /** The terminal's width in columns (only asked when isTTY). */
  get columns(): number | undefined {
    return this.open().columns;
  }

  /** Writes `s`; false when the stream's buffer is full (wait for drain()). */
  write(s: string): boolean {
    if (this.direct && this.stream === undefined) {
      const bytes = Buffer.from(s, 'utf8');
      const { done, error } = writeAllSync(1, bytes);
      if (error === undefined) return true;
      if (error.code !== 'EAGAIN') outputClosed(error);
      return this.open().write(bytes.subarray(done));
    }
    return this.open().write(s);
  }

  /** Resolves when the stream can take more. */
  drain(): Promise<void> {
    return new Promise((resolve) => this.open().once('drain', () => resolve()));
  }

  private open(): NodeJS.WriteStream {
    if (this.stream === undefined) {
      this.stream = process.stdout;
      // A closed pipe (`skilldex search … | head`) ends the run silently with exit 0; a stream
      // that cannot take more (ENOBUFS) with one coded line on stderr and the refusal exit code.
      this.stream.on('error', outputClosed);
    }
    return this.stream;
  }
}

/** Runs the CLI for this process and returns its exit code. */
export async function main(argv: readonly string[]): Promise<ExitCode> {
  const out = new StandardOutput();
  const stderrIsTTY = mayBeTerminal(2) && process.stderr.isTTY === true;
  return run(argv, {
    stdout: (s) => {
      out.write(s);
    },
    stderr: (s) => process.stderr.write(s),
    env: process.env,
    cwd: process.cwd(),
    stderrIsTTY,
    ...(out.isTTY ? { stdoutColumns: out.columns } : {}),
    ...(stderrIsTTY ? { stderrColumns: process.stderr.columns } : {}),
    readStdin: () => readStdinCapped(process.stdin),
    releaseStdin: () => process.stdin.destroy(),
    // write() returning false means the buffer is past its high-water mark: wait for 'drain'.
    // A failed write ends the process (outputClosed).
    writeOut: (s) => (out.write(s) ? Promise.resolve() : out.drain()),
  });
}
