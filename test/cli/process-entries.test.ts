/**
 * What both process entries (src/cli/main.ts and the hook's own src/cli/hook-main.ts) share from
 * context.ts instead of each having a copy (issue 33): standard input read with a cap
 * (FILE_TOO_LARGE naming "-" past it, chunks joined as UTF-8 even when a character is split across
 * them), and the INTERNAL report of a failure no code describes (exit 70, the stack, the hint,
 * secrets masked), and the direct write of standard output (all of it, or where it stopped and why). The hook entry's answers against the full CLI's are test/hook/fast-entry.test.ts.
 */
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { SkilldexError } from '../../src/errors.js';
import { internalFailure, readStdinCapped, writeAllSync } from '../../src/cli/context.js';
import { tmpDir } from '../support/cli.js';

describe('readStdinCapped', () => {
  it('joins the chunks as UTF-8, a character split across two of them included', async () => {
    const euro = Buffer.from('€', 'utf8');
    const stream = Readable.from([Buffer.from('a'), euro.subarray(0, 1), euro.subarray(1), 'b']);
    await expect(readStdinCapped(stream)).resolves.toBe('a€b');
    await expect(readStdinCapped(Readable.from([]))).resolves.toBe('');
  });

  it('reads exactly the cap, and refuses one byte more with FILE_TOO_LARGE naming "-"', async () => {
    await expect(
      readStdinCapped(Readable.from([Buffer.from('1234'), Buffer.from('5678')]), 8),
    ).resolves.toBe('12345678');
    const err = await readStdinCapped(
      Readable.from([Buffer.from('1234'), Buffer.from('56789')]),
      8,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SkilldexError);
    expect((err as SkilldexError).code).toBe('FILE_TOO_LARGE');
    expect((err as SkilldexError).details).toEqual({ file: '-' });
    expect((err as SkilldexError).message).toBe('standard input is over 8 bytes');
  });
});

describe('internalFailure', () => {
  it('is INTERNAL with exit 70, and its stderr carries the message, stack and hint with secrets masked', () => {
    const boom = new TypeError('cannot connect to postgres://me:hunter2@db/x');
    const { error, stderr } = internalFailure(boom);
    expect(error.code).toBe('INTERNAL');
    expect(error.exitCode).toBe(70);
    expect(error.details).toEqual({ name: 'TypeError' });
    expect(stderr.startsWith('error INTERNAL: cannot connect to postgres://me:***@db/x\n')).toBe(
      true,
    );
    expect(stderr).toContain('at ');
    expect(stderr).not.toContain('hunter2');
    expect(stderr.endsWith(`hint: ${error.hint}\n`)).toBe(true);
  });

  it('describes a thrown non-Error by its text', () => {
    const { error, stderr } = internalFailure('plain');
    expect(error.message).toBe('plain');
    expect(stderr.startsWith('error INTERNAL: plain\n')).toBe(true);
  });
});

describe('writeAllSync', () => {
  it('writes every byte to the descriptor', () => {
    const file = path.join(tmpDir('skilldex-write-all-'), 'out.txt');
    const fd = openSync(file, 'w');
    const bytes = Buffer.from('x'.repeat(200_000) + '€\n', 'utf8');
    try {
      expect(writeAllSync(fd, bytes)).toEqual({ done: bytes.length });
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(file)).toEqual(bytes);
  });

  it('returns the failure and how far it got instead of throwing', () => {
    const file = path.join(tmpDir('skilldex-write-all-'), 'in.txt');
    writeFileSync(file, 'kept');
    // A descriptor open for reading only: every write fails (EBADF), nothing is written.
    const fd = openSync(file, 'r');
    try {
      const r = writeAllSync(fd, Buffer.from('abc'));
      expect(r.done).toBe(0);
      expect(r.error?.code).toBe('EBADF');
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(file, 'utf8')).toBe('kept');
  });
});
