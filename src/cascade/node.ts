/**
 * Loads one cascade node (docs/cascade.md "The crawl", steps 1–3): resolves its skill.index by real path,
 * refuses one that leaves the root, reads it once (size-capped), parses it, and checks its stamp.
 * The overlay is read later and only on demand, and only when the stamp matches. Never lists the
 * node's folder and never opens anything but skill.index, skill.index.sha256 and skill.index.md.
 */
import { isAscii } from 'node:buffer';
import path from 'node:path';
import { SkilldexError, problem, type Problem } from '../errors.js';
import { isInside, sha256Hex } from '../fsx/index.js';
import { INDEX_FILE, scanSkillIndex, type MalformedLine, type ScannedIndex } from './index-file.js';
import { OVERLAY_FILE, parseOverlay } from './overlay.js';
import { MAX_STAMP_BYTES, relJoin, type CascadeReader } from './reader.js';
import { STAMP_FILE, stampStatus, type StampStatus } from './stamp.js';

/** Where a node lies and how its files are read. */
export interface NodeContext {
  readonly reader: CascadeReader;
  /** Real path of the cascade root. */
  readonly rootReal: string;
  readonly maxIndexBytes: number;
  /**
   * Nodes already loaded in this operation, by real path and root-relative path: an audit crawls
   * every skill's name through the same few nodes, and parses each once (the files do not change
   * within one operation: the reader caches their bytes too).
   */
  readonly memo?: Map<string, NodeLoad>;
}

/** The result of `loadNode`. */
export type NodeLoad =
  { ok: true; node: LoadedNode } | { ok: false; failure: NodeFailure; problem: Problem };

/**
 * The context of a walk of the cascade at `root`, read through `reader`. FILE_NOT_FOUND when the
 * root does not exist.
 */
export function rootContext(
  root: string,
  reader: CascadeReader,
  maxIndexBytes: number,
): NodeContext {
  const rootReal = reader.realpath(path.resolve(root));
  if (rootReal === undefined)
    throw new SkilldexError('FILE_NOT_FOUND', `cascade root ${root} does not exist`, { root });
  return { reader, rootReal, maxIndexBytes };
}

/** A node whose skill.index was read and parsed. */
export interface LoadedNode {
  /** Path relative to the root, POSIX, `.` for the root. */
  readonly rel: string;
  /** Real path of the node's folder. */
  readonly real: string;
  readonly index: ScannedIndex;
  /** Digest of the index's stored bytes, 64 lowercase hex. */
  readonly sha256: string;
  /** The index bytes are pure ASCII: matching may take its fast path. */
  readonly ascii: boolean;
  readonly stamp: StampStatus;
  /** Malformed lines and stamp problems, in that order. */
  readonly problems: readonly Problem[];
}

/** Why a node could not be loaded. */
export type NodeFailure = 'missing' | 'unreadable' | 'escape';

/** Loads the node whose folder has the real path `real` and the root-relative path `rel`. */
export function loadNode(ctx: NodeContext, real: string, rel: string): NodeLoad {
  if (ctx.memo === undefined) return readNode(ctx, real, rel);
  const key = `${real}\0${rel}`;
  let load = ctx.memo.get(key);
  if (load === undefined) {
    load = readNode(ctx, real, rel);
    ctx.memo.set(key, load);
  }
  return load;
}

function readNode(ctx: NodeContext, real: string, rel: string): NodeLoad {
  const label = relJoin(rel, INDEX_FILE);
  const indexReal = ctx.reader.realpath(path.join(real, INDEX_FILE));
  if (indexReal === undefined) {
    return {
      ok: false,
      failure: 'missing',
      problem: problem('BROKEN_DESCENT', rel, `node ${rel} has no ${INDEX_FILE}`),
    };
  }
  // A skill.index may itself be a link: its real path must stay inside the root like any other.
  if (!isInside(ctx.rootReal, indexReal)) {
    return {
      ok: false,
      failure: 'escape',
      problem: problem(
        'SUBTREE_ESCAPE',
        label,
        `${label} is a link whose real path leaves the root`,
      ),
    };
  }
  const file = ctx.reader.readBytes(indexReal, ctx.maxIndexBytes, label);
  const text = file.ok ? decodeIndexText(file.bytes) : file;
  if (!text.ok) {
    return {
      ok: false,
      failure: 'unreadable',
      problem: problem(
        'UNREADABLE_NODE',
        label,
        `${label} cannot be read (${text.problem.code}): ${text.problem.message}`,
      ),
    };
  }
  const scanned = scanSkillIndex(text.text);
  // Lines blanked for binary junk join the parser's own malformed lines, in line order.
  const index: ScannedIndex =
    text.junk.length === 0
      ? scanned
      : {
          entries: scanned.entries,
          malformed: [...text.junk, ...scanned.malformed].sort((a, b) => a.line - b.line),
        };
  const problems: Problem[] = index.malformed.map((m) =>
    problem('MALFORMED_LINE', label, `${label}:${m.line}: ${m.reason}`, m.line),
  );
  // The stamp covers the stored bytes, BOM included: hash the buffer that was read, not the text.
  const sha256 = sha256Hex(text.bytes);
  const stamp = readStamp(ctx, real, rel, sha256);
  problems.push(...stamp.problems);
  return {
    ok: true,
    node: { rel, real, index, sha256, ascii: text.ascii, problems, stamp: stamp.status },
  };
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes skill.index bytes line by line when the whole file is not clean text: a line holding a
 * NUL byte or bytes that are not UTF-8 is one malformed line (blanked, recorded with its number),
 * never a reason to drop the whole node. Clean files take `decodeText`'s fast paths.
 */
export function decodeIndexText(bytes: Buffer): {
  ok: true;
  bytes: Buffer;
  text: string;
  ascii: boolean;
  junk: MalformedLine[];
} {
  const whole = decodeText(bytes, INDEX_FILE);
  if (whole.ok) return { ...whole, junk: [] };
  const junk: MalformedLine[] = [];
  const lines: string[] = [];
  let start = 0;
  let lineNo = 1;
  while (start <= bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    const raw = bytes.subarray(start, end);
    let text: string | undefined;
    if (!raw.includes(0)) {
      try {
        text = UTF8.decode(raw);
      } catch {
        // Not UTF-8: recorded below as a malformed line.
        text = undefined;
      }
    }
    if (text === undefined) {
      const what = raw.includes(0) ? 'a NUL byte' : 'bytes that are not UTF-8';
      junk.push({
        line: lineNo,
        text: raw.toString('latin1'),
        reason: `binary junk (${what}): not a key: keywords line`,
      });
      text = '';
    }
    if (lineNo === 1 && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    lines.push(text);
    start = end + 1;
    lineNo++;
  }
  return { ok: true, bytes, text: lines.join('\n'), ascii: false, junk };
}

/**
 * Decodes index, stamp or overlay bytes as fsx's text read does (NUL bytes and invalid UTF-8 are
 * refused, a leading BOM is dropped), with a fast path for pure ASCII, the usual case of a large index.
 */
export function decodeText(
  bytes: Buffer,
  label: string,
): { ok: true; bytes: Buffer; text: string; ascii: boolean } | { ok: false; problem: Problem } {
  if (bytes.includes(0))
    return { ok: false, problem: problem('BINARY_CONTENT', label, `${label} contains a NUL byte`) };
  if (isAscii(bytes)) return { ok: true, bytes, text: bytes.toString('latin1'), ascii: true };
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return { ok: false, problem: problem('INVALID_UTF8', label, `${label} is not valid UTF-8`) };
  }
  return {
    ok: true,
    bytes,
    text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text,
    ascii: false,
  };
}

function readStamp(
  ctx: NodeContext,
  real: string,
  rel: string,
  sha256: string,
): { status: StampStatus; problems: Problem[] } {
  const label = relJoin(rel, STAMP_FILE);
  const stampReal = ctx.reader.realpath(path.join(real, STAMP_FILE));
  if (stampReal === undefined) {
    return {
      status: 'missing',
      problems: [
        problem('STAMP_MISSING', label, `${label} is missing: the overlay of ${rel} is untrusted`),
      ],
    };
  }
  if (!isInside(ctx.rootReal, stampReal)) {
    const msg = `${label} is a link whose real path leaves the root: not read, the overlay of ${rel} is untrusted`;
    return { status: 'mismatch', problems: [problem('STAMP_MISMATCH', label, msg)] };
  }
  const read = ctx.reader.readBytes(stampReal, MAX_STAMP_BYTES, label);
  const file = read.ok ? decodeText(read.bytes, label) : read;
  if (!file.ok) {
    const msg = `${label} cannot be read (${file.problem.code}): the overlay of ${rel} is untrusted`;
    return { status: 'mismatch', problems: [problem('STAMP_MISMATCH', label, msg)] };
  }
  const status = stampStatus(file.text, sha256);
  if (status === 'match') return { status, problems: [] };
  const msg = `${label} does not hold the sha256 of ${relJoin(rel, INDEX_FILE)} (${sha256}): the overlay of ${rel} is untrusted`;
  return { status, problems: [problem('STAMP_MISMATCH', label, msg)] };
}

/**
 * Reads the overlay of a node whose stamp matches. Undefined (with no problem) when there is no
 * overlay; undefined with a problem when it leaves the root or cannot be read.
 */
export function loadOverlay(
  ctx: NodeContext,
  node: LoadedNode,
): { sections?: ReadonlyMap<string, string>; problem?: Problem } {
  if (node.stamp !== 'match') return {};
  const label = relJoin(node.rel, OVERLAY_FILE);
  const overlayReal = ctx.reader.realpath(path.join(node.real, OVERLAY_FILE));
  if (overlayReal === undefined) return {};
  if (!isInside(ctx.rootReal, overlayReal)) {
    return {
      problem: problem(
        'PATH_OUTSIDE_ROOT',
        label,
        `${label} is a link whose real path leaves the root: not read`,
      ),
    };
  }
  const read = ctx.reader.readBytes(overlayReal, ctx.maxIndexBytes, label);
  const file = read.ok ? decodeText(read.bytes, label) : read;
  if (!file.ok)
    return {
      problem: problem(
        'UNREADABLE',
        label,
        `${label} cannot be read (${file.problem.code}): not used`,
      ),
    };
  return { sections: parseOverlay(file.text) };
}
