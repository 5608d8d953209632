/**
 * Bounded head read with a streamed hash, for files whose start is parsed and whose rest is only
 * hashed (a SKILL.md: frontmatter up front, a body of any size after it). Keeps at most `headBytes`
 * in memory, streams the whole file through sha256 (exact bytes) and through a second sha256 of the
 * bytes with the BOM removed and CRLF folded to LF, and checks every chunk for NUL bytes and invalid
 * UTF-8. Opens with O_NOFOLLOW and, when the caller says what it saw, refuses a file whose device
 * and inode differ from the walk's (a file swapped, or a folder swapped for a link, since the walk).
 * Never returns body text.
 */
import type { Hash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { problem } from '../errors.js';
import { nodeCrypto } from './crypto.js';
import { errCode, withoutBom, type RefusedFile } from './read.js';

/** Largest SKILL.md hashed at all: 256 MiB (a 100 MB body is a valid skill; hashing 256 MiB takes about a second). */
export const DEFAULT_MAX_FILE_BYTES = 256 * 1024 * 1024;
/** Largest head kept in memory: 64 KiB, the frontmatter cap (docs/integration.md §7 "Limits"; specs cap a description at 1,024 chars). */
export const DEFAULT_MAX_HEAD_BYTES = 64 * 1024;

// Read size of the streamed part: 1 MiB per read call.
const CHUNK_BYTES = 1024 * 1024;

/** What the walker saw: the file's device and inode. */
export interface FileIdentity {
  readonly dev: number;
  readonly ino: number;
}

/** A head read: the head text (complete lines only when cut), hashes of the whole file. */
export interface HeadFile {
  readonly ok: true;
  readonly path: string;
  /** Decoded head without BOM: the whole file when `truncated` is false, else its complete lines up to `headBytes`. */
  readonly head: string;
  readonly truncated: boolean;
  /** `sha256:<hex>` of the exact bytes of the whole file. */
  readonly sha256: string;
  /** `sha256:<hex>` of the bytes with a leading BOM removed and CRLF folded to LF. */
  readonly normalizedSha256: string;
  readonly hasBom: boolean;
  readonly size: number;
  readonly mtimeMs: number;
}

/** Options of `readHeadHashed`. */
export interface HeadOptions {
  /** Bytes of the start kept as text. Default 64 KiB. */
  readonly headBytes?: number;
  /** Files larger than this are refused (FILE_TOO_LARGE) before reading. Default 256 MiB. */
  readonly maxBytes?: number;
  /** Path named in problems. Default: `path`. */
  readonly label?: string;
  /** The identity the walker saw; a different opened file is refused (FILE_SWAPPED). */
  readonly expect?: FileIdentity;
}

/**
 * Reads the head of the regular file `path` and hashes all of it. Never throws for a bad file: the
 * refusal carries a Problem (UNREADABLE, PATH_OUTSIDE_ROOT for a link at `path`, NOT_A_FILE,
 * FILE_SWAPPED, FILE_TOO_LARGE, BINARY_CONTENT, INVALID_UTF8).
 */
export function readHeadHashed(path: string, options: HeadOptions = {}): HeadFile | RefusedFile {
  const headBytes = options.headBytes ?? DEFAULT_MAX_HEAD_BYTES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  const label = options.label ?? path;
  const refuse = refuser(path, label);
  let fd: number;
  try {
    // O_NOFOLLOW: `path` is a real path, so a link at its place was planted after the walk.
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (err) {
    const code = errCode(err);
    if (code === 'ELOOP' || code === 'EMLINK') {
      return refuse(
        'PATH_OUTSIDE_ROOT',
        `${label} became a symbolic link after it was found; not read`,
      );
    }
    return refuse('UNREADABLE', `${label} could not be opened: ${code}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return refuse('NOT_A_FILE', `${label} is not a regular file`);
    if (options.expect && (st.dev !== options.expect.dev || st.ino !== options.expect.ino)) {
      return refuse(
        'FILE_SWAPPED',
        `${label} is not the file the walk found (it was replaced, or a folder on its path was swapped); not read`,
      );
    }
    if (st.size > maxBytes) {
      return refuse('FILE_TOO_LARGE', `${label} is ${st.size} bytes, over the cap of ${maxBytes}`);
    }
    const exact = nodeCrypto().createHash('sha256');
    const normal = new Normalizer();
    const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    // Both buffers are scratch (this function is synchronous and keeps neither): one allocation
    // per process rather than a 64 KiB head and a chunk per file, 10,000 of them in a full index.
    const headBuf = scratch('head', headBytes + 1);
    let headLen = 0;
    let size = 0;
    const chunk = scratch('chunk', Math.min(CHUNK_BYTES, Math.max(st.size + 1, 4096)));
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      const part = chunk.subarray(0, n);
      size += n;
      if (size > maxBytes)
        return refuse(
          'FILE_TOO_LARGE',
          `${label} grew past the cap of ${maxBytes} bytes while being read`,
        );
      if (part.includes(0))
        return refuse(
          'BINARY_CONTENT',
          `${label} contains a NUL byte: binary content is not a skill`,
        );
      try {
        utf8.decode(part, { stream: true });
      } catch {
        return refuse('INVALID_UTF8', `${label} is not valid UTF-8`);
      }
      normal.update(part, size === n, exact);
      exact.update(part);
      if (headLen <= headBytes)
        headLen += part.copy(headBuf, headLen, 0, Math.min(n, headBuf.length - headLen));
    }
    try {
      utf8.decode();
    } catch {
      return refuse('INVALID_UTF8', `${label} is not valid UTF-8 (it ends inside a character)`);
    }
    const truncated = headLen > headBytes;
    let headRaw = headBuf.subarray(0, headLen);
    // A cut head keeps complete lines only: a fence or a character is never split.
    if (truncated) headRaw = headRaw.subarray(0, headRaw.lastIndexOf(0x0a) + 1);
    const { text: head, hasBom } = withoutBom(
      new TextDecoder('utf-8', { ignoreBOM: true }).decode(headRaw),
    );
    const sha256 = 'sha256:' + exact.digest('hex');
    return {
      ok: true,
      path,
      head,
      truncated,
      sha256,
      normalizedSha256: normal.changed ? 'sha256:' + normal.digest() : sha256,
      hasBom,
      size,
      mtimeMs: st.mtimeMs,
    };
  } catch (err) {
    return refuse('UNREADABLE', `${label} could not be read: ${errCode(err)}`);
  } finally {
    closeSync(fd);
  }
}

// Streams bytes into sha256 with a leading BOM dropped and every CRLF folded to LF. A CR at the end
// of a chunk is held back until the next chunk shows whether an LF follows. Until the first BOM or
// CR the normalized bytes are the exact ones: no hash of its own is kept (`changed` false, and the
// caller's exact hash is the answer); at the first, the exact hash of the bytes before that chunk
// is copied and the normalizing starts there. A file with neither is hashed once, not twice.
class Normalizer {
  private hash: Hash | undefined;
  private pendingCr = false;

  /** Whether a BOM or a CR was seen: the normalized bytes may differ from the exact ones. */
  get changed(): boolean {
    return this.hash !== undefined;
  }

  /** Takes the next chunk; `exact` is the exact hash of the chunks before it (not yet of `part`). */
  update(part: Buffer, first: boolean, exact: Hash): void {
    if (this.hash === undefined) {
      const bom = first && part[0] === 0xef && part[1] === 0xbb && part[2] === 0xbf;
      if (!bom && part.indexOf(0x0d) < 0) return;
      this.hash = exact.copy();
    }
    const hash = this.hash;
    let buf = part;
    if (first && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) buf = buf.subarray(3);
    if (this.pendingCr) {
      this.pendingCr = false;
      if (buf[0] !== 0x0a) hash.update(CR);
    }
    let end = buf.length;
    if (end > 0 && buf[end - 1] === 0x0d) {
      this.pendingCr = true;
      end--;
    }
    let from = 0;
    for (;;) {
      const cr = buf.indexOf(0x0d, from);
      if (cr < 0 || cr >= end) break;
      if (buf[cr + 1] === 0x0a) {
        hash.update(buf.subarray(from, cr));
        from = cr + 1;
      } else {
        hash.update(buf.subarray(from, cr + 1));
        from = cr + 1;
      }
    }
    hash.update(buf.subarray(from, end));
  }

  digest(): string {
    if (this.hash === undefined)
      throw new Error('Normalizer.digest: nothing differed (use the exact hash)');
    if (this.pendingCr) this.hash.update(CR);
    return this.hash.digest('hex');
  }
}

const CR = Buffer.from([0x0d]);

// The scratch buffers of readHeadHashed, by use; each grows to the largest size asked and is reused.
const SCRATCH = { head: Buffer.alloc(0), chunk: Buffer.alloc(0) };

// A buffer of exactly `bytes` bytes (contents undefined) over the scratch buffer of `use`.
function scratch(use: keyof typeof SCRATCH, bytes: number): Buffer {
  if (SCRATCH[use].length < bytes) SCRATCH[use] = Buffer.allocUnsafe(bytes);
  return SCRATCH[use].subarray(0, bytes);
}

/** A prefix read: complete lines of text from the start, and whether the whole file was read. */
export interface PrefixText {
  readonly ok: true;
  /** Decoded text without BOM: the whole file when `complete`, else its complete lines read. */
  readonly text: string;
  readonly complete: boolean;
}

/**
 * Reads the regular file `path` from its start in `chunkBytes` steps until `enough(text)` says the
 * text read so far (complete lines, BOM removed) holds what the caller needs, the file ends, or
 * `maxBytes` have been read; never more. Non-regular files are refused before reading (opened
 * non-blocking); NUL bytes and invalid UTF-8 in the part read are problems.
 */
export function readPrefixUntil(
  path: string,
  options: {
    maxBytes: number;
    label?: string;
    chunkBytes?: number;
    enough: (text: string) => boolean;
  },
): PrefixText | RefusedFile {
  const label = options.label ?? path;
  const step = options.chunkBytes ?? 16 * 1024;
  const refuse = refuser(path, label);
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    return refuse('UNREADABLE', `${label} could not be opened: ${errCode(err)}`);
  }
  try {
    if (!fstatSync(fd).isFile()) return refuse('NOT_A_FILE', `${label} is not a regular file`);
    const buf = Buffer.allocUnsafe(options.maxBytes);
    let len = 0;
    for (;;) {
      const room = buf.length - len;
      const n = room > 0 ? readSync(fd, buf, len, Math.min(step, room), null) : 0;
      len += n;
      const eof = n === 0 && room > 0;
      const bytes = buf.subarray(0, len);
      if (bytes.includes(0)) return refuse('BINARY_CONTENT', `${label} contains a NUL byte`);
      // Complete lines only until the end: a line (or a character) is never cut.
      const usable = eof ? bytes : bytes.subarray(0, bytes.lastIndexOf(0x0a) + 1);
      let text: string;
      try {
        text = withoutBom(FATAL_UTF8.decode(usable)).text;
      } catch {
        return refuse('INVALID_UTF8', `${label} is not valid UTF-8`);
      }
      if (eof) return { ok: true, text, complete: true };
      if (room === 0 || options.enough(text)) return { ok: true, text, complete: false };
    }
  } catch (err) {
    return refuse('UNREADABLE', `${label} could not be read: ${errCode(err)}`);
  } finally {
    closeSync(fd);
  }
}

const FATAL_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** How a reader refuses the file at `path`: a RefusedFile with the problem named by `label`. */
function refuser(
  path: string,
  label: string,
): (code: Parameters<typeof problem>[0], message: string) => RefusedFile {
  return (code, message) => ({ ok: false, path, problem: problem(code, label, message) });
}
