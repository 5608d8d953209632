/**
 * Size-capped single reads and hashing (src/fsx/read.ts, issue #2 §3, docs/integration.md §3): the
 * hash and the text come from one read; the size cap is checked before reading (a sparse 100 MB
 * file is refused at once), NUL bytes and invalid UTF-8 are problems, BOM and CRLF are accepted,
 * FIFOs and folders are refused without hanging.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, ftruncateSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_SKILL_BYTES,
  errCode,
  readBytesCapped,
  readTextCapped,
  sha256Hex,
  sha256Of,
} from '../../src/fsx/index.js';
import { tmpDir } from '../support/cli.js';

function file(name: string, content: string | Uint8Array): string {
  const p = path.join(tmpDir(), name);
  writeFileSync(p, content);
  return p;
}

function refusedCode(r: ReturnType<typeof readTextCapped>): string | undefined {
  return r.ok ? undefined : r.problem.code;
}

describe('readTextCapped', () => {
  it('reads UTF-8 text with its exact bytes and hash', () => {
    const p = file('SKILL.md', '---\nname: café\n---\n');
    const r = readTextCapped(p);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.text).toBe('---\nname: café\n---\n');
    expect(r.hasBom).toBe(false);
    expect(r.size).toBe(Buffer.byteLength('---\nname: café\n---\n'));
    expect(r.sha256).toBe(sha256Of(Buffer.from('---\nname: café\n---\n')));
  });

  it('refuses a 100 MB file by its size without reading it (sparse file)', () => {
    const p = path.join(tmpDir(), 'SKILL.md');
    const fd = openSync(p, 'w');
    ftruncateSync(fd, 100 * 1024 * 1024);
    closeSync(fd);
    const r = readTextCapped(p);
    expect(refusedCode(r)).toBe('FILE_TOO_LARGE');
    if (!r.ok) expect(r.problem.path).toBe(p);
  });

  it('applies a configurable cap, inclusive', () => {
    const p = file('f.md', '0123456789');
    expect(refusedCode(readTextCapped(p, { maxBytes: 9 }))).toBe('FILE_TOO_LARGE');
    expect(readTextCapped(p, { maxBytes: 10 }).ok).toBe(true);
    expect(DEFAULT_MAX_SKILL_BYTES).toBe(1024 * 1024);
  });

  it('refuses NUL bytes as binary content', () => {
    expect(refusedCode(readTextCapped(file('f.md', Buffer.from('---\nname: a\0b\n---\n'))))).toBe(
      'BINARY_CONTENT',
    );
    expect(
      refusedCode(readTextCapped(file('f.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00])))),
    ).toBe('BINARY_CONTENT');
  });

  it('refuses invalid UTF-8: stray continuation, overlong form, encoded surrogate, truncated sequence', () => {
    for (const bytes of [
      [0x61, 0x80, 0x62],
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0x61, 0xe2, 0x82],
      [0xff, 0xfe, 0x61],
    ]) {
      expect(refusedCode(readTextCapped(file('f.md', Buffer.from(bytes))))).toBe('INVALID_UTF8');
    }
  });

  it('strips a leading BOM from the text but hashes the exact bytes', () => {
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('---\nname: a\n---\n'),
    ]);
    const r = readTextCapped(file('f.md', bytes));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.hasBom).toBe(true);
    expect(r.text).toBe('---\nname: a\n---\n');
    expect(r.sha256).toBe(sha256Of(bytes));
    expect(r.sha256).not.toBe(sha256Of('---\nname: a\n---\n'));
  });

  it('keeps CRLF line endings as stored', () => {
    const r = readTextCapped(file('f.md', '---\r\nname: a\r\n---\r\n'));
    expect(r.ok && r.text).toBe('---\r\nname: a\r\n---\r\n');
  });

  it('refuses a FIFO without waiting for a writer', () => {
    const p = path.join(tmpDir(), 'SKILL.md');
    execFileSync('mkfifo', [p]);
    expect(refusedCode(readTextCapped(p))).toBe('NOT_A_FILE');
  });

  it('refuses a folder', () => {
    const p = path.join(tmpDir(), 'SKILL.md');
    mkdirSync(p);
    expect(refusedCode(readTextCapped(p))).toBe('NOT_A_FILE');
  });

  it('reports a missing file as unreadable, labelled as asked', () => {
    const r = readTextCapped('/nonexistent-skilldex/SKILL.md', { label: 'skills/x/SKILL.md' });
    expect(r).toMatchObject({
      ok: false,
      problem: { code: 'UNREADABLE', path: 'skills/x/SKILL.md' },
    });
  });

  it('reads on past the stat size: a pseudo-file that stats as 0 bytes is read whole', () => {
    // /proc files report size 0; a file that grows between stat and read behaves the same way.
    const proc = '/proc/self/status';
    if (!existsSync(proc)) return;
    const r = readTextCapped(proc);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.text).toMatch(/^Name:[\s\S]*\nPid:\s+\d+/);
    expect(refusedCode(readTextCapped(proc, { maxBytes: 8 }))).toBe('FILE_TOO_LARGE');
  });
});

describe('readBytesCapped', () => {
  it('returns the exact bytes', () => {
    const bytes = Buffer.from([0xef, 0xbb, 0xbf, 0x00, 0xff, 0x0d, 0x0a]);
    const r = readBytesCapped(file('b.bin', bytes), 100);
    expect(r.ok && Buffer.compare(r.bytes, bytes)).toBe(0);
  });
});

describe('sha256Of and sha256Hex', () => {
  it('hash exact bytes (FIPS 180-2 test vector)', () => {
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    expect(sha256Hex('abc')).toBe(abc);
    expect(sha256Of(Buffer.from('abc'))).toBe(`sha256:${abc}`);
    expect(sha256Of('a\r\n')).not.toBe(sha256Of('a\n'));
  });
});

describe('errCode', () => {
  it('gives the errno code of an fs error, else the message', () => {
    expect(errCode(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe('ENOENT');
    expect(errCode(new Error('plain'))).toBe('plain');
    expect(errCode('text')).toBe('text');
  });
});
