/**
 * Size-capped, single-read file access. A file is read once into a buffer; its hash, its parse and
 * any returned text all come from that buffer (docs/integration.md §3: the hash and the returned
 * body come from one read). Non-regular files are refused before reading (opened non-blocking, so
 * a FIFO can never hang us), sizes are checked before allocating, a file that grows while being
 * read is refused past the cap, NUL bytes and invalid UTF-8 are problems, a BOM is removed from the
 * text (and reported), CRLF is kept as stored. A bad file is never thrown: it comes back as a
 * refusal carrying a Problem.
 *
 * Reads are synchronous: discovery, ingest and substrate reads open many small files, where sync
 * reads were measured faster than promise-based ones (4.3× while skilldex was designed). The
 * request paths of `fetch` and the MCP server read one skill per call, bounded by the size cap.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { assertKnownOptions, problem, type Problem } from '../errors.js';
import { nodeCrypto } from './crypto.js';

/** Default size cap for SKILL.md files: 1 MiB. */
export const DEFAULT_MAX_SKILL_BYTES = 1024 * 1024;

/** A successful read: exact bytes, their hash, and the decoded text without BOM. */
export interface TextFile {
  readonly ok: true;
  readonly path: string;
  readonly bytes: Buffer;
  /** `sha256:<64 hex>` of the exact bytes. */
  readonly sha256: string;
  /** Decoded UTF-8 with any leading BOM removed; line endings as stored. */
  readonly text: string;
  readonly hasBom: boolean;
  readonly size: number;
  readonly mtimeMs: number;
  /** Permission bits of the file that was read (`st.mode & 0o7777`, from the opened descriptor). */
  readonly mode: number;
  /** Owner of the file that was read (from the opened descriptor). */
  readonly uid: number;
}

/** A refused read: the problem says why. */
export interface RefusedFile {
  readonly ok: false;
  readonly path: string;
  readonly problem: Problem;
}

/** sha256 of `bytes` as `sha256:<64 lowercase hex>`. */
export function sha256Of(bytes: Uint8Array | string): string {
  return 'sha256:' + nodeCrypto().createHash('sha256').update(bytes).digest('hex');
}

/** Plain 64-hex sha256 of `bytes`. */
export function sha256Hex(bytes: Uint8Array | string): string {
  return nodeCrypto().createHash('sha256').update(bytes).digest('hex');
}

const READ_OPTION_KEYS: readonly string[] = ['maxBytes', 'label', 'noFollow'];

/**
 * Reads at most `maxBytes` bytes of the regular file `path` (default 1 MiB) as UTF-8 text.
 * Never throws for a bad file: the refusal carries a Problem (NOT_A_FILE, FILE_TOO_LARGE,
 * BINARY_CONTENT, INVALID_UTF8, UNREADABLE); only an unknown option throws (INVALID_ARGUMENT).
 * `label` is the path used in problems.
 */
export function readTextCapped(
  path: string,
  options: { maxBytes?: number; label?: string; noFollow?: boolean } = {},
): TextFile | RefusedFile {
  assertKnownOptions(options, READ_OPTION_KEYS, 'readTextCapped');
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_SKILL_BYTES;
  const label = options.label ?? path;
  const raw = readBytesCapped(path, maxBytes, label, options.noFollow === true);
  if (!raw.ok) return raw;
  const { bytes, mtimeMs, mode, uid } = raw;
  if (bytes.includes(0)) {
    return refuse(
      path,
      problem(
        'BINARY_CONTENT',
        label,
        `${label} contains a NUL byte: binary content is not a skill`,
      ),
    );
  }
  let decoded: string;
  try {
    decoded = UTF8.decode(bytes);
  } catch {
    return refuse(path, problem('INVALID_UTF8', label, `${label} is not valid UTF-8`));
  }
  const { text, hasBom } = withoutBom(decoded);
  // Hashed on first use (memoised): most readers (a config, the hook's session state) never ask,
  // and the first hash loads node:crypto, several milliseconds of a prompt hook's run (issue 35).
  let hash: string | undefined;
  return {
    ok: true,
    path,
    bytes,
    get sha256(): string {
      hash ??= sha256Of(bytes);
      return hash;
    },
    text,
    hasBom,
    size: bytes.length,
    mtimeMs,
    mode,
    uid,
  };
}

/** `text` without its leading byte-order mark, and whether it had one. */
export function withoutBom(text: string): { text: string; hasBom: boolean } {
  const hasBom = text.charCodeAt(0) === 0xfeff;
  return { text: hasBom ? text.slice(1) : text, hasBom };
}

/**
 * The first `maxBytes` bytes of the regular file `path` and its whole size, for a scanner that
 * reads the head of a file of any size (readBytesCapped refuses a file over its cap). Never follows
 * a link at `path` itself (one planted since a walk), opens non-blocking (a FIFO never waits for a
 * writer), and refuses what is not a regular file: UNREADABLE or NOT_A_FILE naming the file.
 */
export function readFirstBytes(
  path: string,
  maxBytes: number,
): { ok: true; bytes: Buffer; size: number } | RefusedFile {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    return refuse(
      path,
      problem('UNREADABLE', path, `${path} could not be opened (${errCode(err)})`),
    );
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile())
      return refuse(path, problem('NOT_A_FILE', path, `${path} is not a regular file`));
    const buf = Buffer.alloc(Math.min(maxBytes, st.size));
    let n = 0;
    while (n < buf.length) {
      const got = readSync(fd, buf, n, buf.length - n, n);
      if (got === 0) break;
      n += got;
    }
    return { ok: true, bytes: buf.subarray(0, n), size: st.size };
  } catch (err) {
    return refuse(path, problem('UNREADABLE', path, `${path} could not be read (${errCode(err)})`));
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads the exact bytes of a regular file up to `maxBytes`; refuses larger and non-regular files.
 * With `noFollow`, a symbolic link at `path` itself is refused (PATH_OUTSIDE_ROOT): for a path
 * that was a real path when it was recorded, a link there now was planted since.
 */
export function readBytesCapped(
  path: string,
  maxBytes: number,
  label: string = path,
  noFollow = false,
): { ok: true; bytes: Buffer; mtimeMs: number; mode: number; uid: number } | RefusedFile {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
    fd = openSync(
      path,
      constants.O_RDONLY | constants.O_NONBLOCK | (noFollow ? constants.O_NOFOLLOW : 0),
    );
  } catch (err) {
    if (noFollow && errCode(err) === 'ELOOP') {
      return refuse(
        path,
        problem('PATH_OUTSIDE_ROOT', label, `${label} is now a symbolic link; not read`),
      );
    }
    return refuse(
      path,
      problem('UNREADABLE', label, `${label} could not be opened: ${errCode(err)}`),
    );
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) {
      return refuse(path, problem('NOT_A_FILE', label, `${label} is not a regular file`));
    }
    if (st.size > maxBytes) {
      return refuse(
        path,
        problem(
          'FILE_TOO_LARGE',
          label,
          `${label} is ${st.size} bytes, over the cap of ${maxBytes}`,
        ),
      );
    }
    // Allocate one byte more than the stat said, to notice a file that grew since the stat. Such a
    // file (or a pseudo-file that stats as 0 bytes) is read on to its end, never cut short, with
    // the buffer growing up to the cap plus one byte.
    let buf = Buffer.allocUnsafe(Math.min(st.size, maxBytes) + 1);
    let len = 0;
    for (;;) {
      if (len === buf.length) {
        if (len > maxBytes) {
          return refuse(
            path,
            problem(
              'FILE_TOO_LARGE',
              label,
              `${label} grew past the cap of ${maxBytes} bytes while being read`,
            ),
          );
        }
        const bigger = Buffer.allocUnsafe(
          Math.min(maxBytes + 1, Math.max(buf.length * 2, GROW_BYTES)),
        );
        buf.copy(bigger, 0, 0, len);
        buf = bigger;
      }
      const n = readSync(fd, buf, len, buf.length - len, null);
      if (n === 0) break;
      len += n;
    }
    return {
      ok: true,
      bytes: buf.subarray(0, len),
      mtimeMs: st.mtimeMs,
      mode: st.mode & 0o7777,
      uid: st.uid,
    };
  } catch (err) {
    return refuse(
      path,
      problem('UNREADABLE', label, `${label} could not be read: ${errCode(err)}`),
    );
  } finally {
    closeSync(fd);
  }
}

// Smallest step when a file outgrows its stat size: 64 KiB.
const GROW_BYTES = 64 * 1024;

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function refuse(path: string, p: Problem): RefusedFile {
  return { ok: false, path, problem: p };
}

/** The errno code of a Node fs error (`ENOENT`, `EACCES`…), or its message. */
export function errCode(err: unknown): string {
  if (err && typeof err === 'object' && 'code' in err && typeof err.code === 'string')
    return err.code;
  return err instanceof Error ? err.message : String(err);
}
