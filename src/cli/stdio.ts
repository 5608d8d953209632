/**
 * The process entries' standard input and output: the loops main.ts, hook-main.ts and the hook
 * server's client (hook-client.ts) share. Its own module so the client loads nothing else of the
 * CLI.
 */
import { writeSync } from 'node:fs';
import { SkilldexError } from '../errors.js';

/** Largest input file or standard input a command reads (query batches, needs, eval sets): 64 MiB. */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/**
 * Writes all of `bytes` to descriptor `fd` with writeSync (a pipe or a file: no stream to create),
 * and says how far it got: `error` is the failure that stopped it (EPIPE, EAGAIN, …) after `done`
 * bytes. What both process entries do for standard output (main.ts's StandardOutput and the hook's
 * hook-main.ts, each deciding what a failure means; issue 33: one loop).
 */
export function writeAllSync(
  fd: number,
  bytes: Uint8Array,
): { done: number; error?: NodeJS.ErrnoException } {
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    return { done };
  } catch (err) {
    return { done, error: err as NodeJS.ErrnoException };
  }
}

/**
 * Standard input as text, at most `maxBytes` (FILE_TOO_LARGE naming "-" past it, and the stream
 * destroyed): the `readStdin` of both process entries, main.ts and the hook's own hook-main.ts, and
 * of the hook server's client (issue 33: one copy). Read through the stream (process.stdin), not
 * descriptor 0: a read on descriptor 0 in libuv's thread pool still waiting at a hook's deadline (a
 * host that never closes standard input) would hold the process at exit, where the stream is
 * destroyed and the process ends. Through its `data` and `end` events rather than `for await`: the
 * stream's async iterator cost a prompt about 1 ms more (bench/results/hook.md).
 */
export function readStdinCapped(
  stdin: NodeJS.ReadableStream & { destroy?: () => unknown },
  maxBytes = MAX_INPUT_BYTES,
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const off = (): void => {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('error', onError);
    };
    const onData = (c: Buffer | string): void => {
      const chunk = typeof c === 'string' ? Buffer.from(c, 'utf8') : c;
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      off();
      stdin.destroy?.();
      reject(
        new SkilldexError('FILE_TOO_LARGE', `standard input is over ${maxBytes} bytes`, {
          file: '-',
        }),
      );
    };
    const onEnd = (): void => {
      off();
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const onError = (err: Error): void => {
      off();
      reject(err);
    };
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.on('error', onError);
  });
}

/**
 * `read` raced against `ms` milliseconds: undefined when the time runs out first, after `release()`
 * has let go of standard input (so the process can exit while the read is abandoned). How the
 * hook's own entry (commands/hook.ts) and its server's client (hook-client.ts) wait for the host's
 * input within the hook's deadline.
 */
export async function withinDeadline<T>(
  read: Promise<T>,
  ms: number,
  release: () => void,
): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(
      () => {
        release();
        resolve(undefined);
      },
      Math.max(0, ms),
    );
  });
  try {
    return await Promise.race([read, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Milliseconds on a monotonic clock: what a hook's deadline is counted in. Not performance.now():
 * the global `performance` loads node:perf_hooks on first use, ~1.2 ms of every prompt (bench:hook).
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
