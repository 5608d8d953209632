/**
 * The folder listings of an index's walk, kept in the catalog for the next one (fsx `WalkListings`):
 * an unchanged re-index then `stat`s each folder instead of listing it (issue 33, "unchanged
 * re-index ≤ 0.05 of a full index"; listing a folder costs about three times a stat here), as git
 * trusts its index for unchanged folders. What a walk finds is the same either way: a listing is
 * reused only for the folder (device, inode, real path) it was taken of, while its mtime and ctime
 * are the ones taken before that listing, and only listings taken when both were RACY_MS old are
 * recorded.
 *
 * Stored as one `meta` value: base64 of the raw-deflated format name and records, each `real path,
 * mtime, ctime, device, inode, kinds, names…`, joined by NUL (a byte no path or file name holds; `kinds` has one letter an
 * entry, so it also says how many names follow). A value this code cannot read is no listing: the
 * walk lists every folder and the run records anew.
 */
import { inflateRawSync } from 'node:zlib';
import type { FolderListing, WalkListings } from '../../fsx/index.js';
import type { Db } from '../db.js';
import { deflateRawFitted } from '../store/deflate.js';
import { readMeta, writeMeta } from '../store/meta.js';

/** The `meta` key of the listings. */
export const WALK_LISTINGS_META_KEY = 'walk_listings';

/** The first field of the stored form: another format (or none) is no listing. */
const FORMAT = 'walk-listings/1';

/** Largest stored value inflated (a damaged or hostile row must not take the memory). */
const MAX_LISTINGS_BYTES = 256 * 1024 * 1024;

/** The listings the catalog keeps, ready for a walk to reuse and record. */
export function readWalkListings(db: Db): WalkListings {
  return { previous: decodeListings(readMeta(db, WALK_LISTINGS_META_KEY)), seen: new Map() };
}

/**
 * Stores what the walk of `listings` saw, unless it is what the catalog keeps already (a walk that
 * reused every listing and saw no other folder writes nothing).
 */
export function writeWalkListings(db: Db, listings: WalkListings): void {
  const { previous, seen } = listings;
  if (seen.size === previous.size && [...seen].every(([k, v]) => previous.get(k) === v)) return;
  writeMeta(db, WALK_LISTINGS_META_KEY, encodeListings(seen));
}

/** The stored form of `listings`. */
export function encodeListings(listings: ReadonlyMap<string, FolderListing>): string {
  const parts: string[] = [FORMAT];
  for (const [real, l] of listings) {
    parts.push(real, String(l.mtimeMs), String(l.ctimeMs), String(l.dev), String(l.ino));
    parts.push(l.kinds, ...l.names);
  }
  return deflateRawFitted(Buffer.from(parts.join('\0'), 'utf8')).toString('base64');
}

/** The listings of a stored value; empty for none or for one this code did not write. */
export function decodeListings(value: string | undefined): Map<string, FolderListing> {
  const out = new Map<string, FolderListing>();
  if (value === undefined || value === '') return out;
  let fields: string[];
  try {
    const bytes = inflateRawSync(Buffer.from(value, 'base64'), {
      maxOutputLength: MAX_LISTINGS_BYTES,
    });
    if (bytes.length === 0) return out;
    fields = bytes.toString('utf8').split('\0');
  } catch {
    return out;
  }
  if (fields[0] !== FORMAT) return out;
  for (let i = 1; i < fields.length;) {
    const real = fields[i]!;
    const kinds = fields[i + 5];
    const end = i + 6 + (kinds?.length ?? 0);
    if (kinds === undefined || end > fields.length || real === '' || !KINDS.test(kinds))
      return new Map();
    const listing: FolderListing = {
      mtimeMs: Number(fields[i + 1]),
      ctimeMs: Number(fields[i + 2]),
      dev: Number(fields[i + 3]),
      ino: Number(fields[i + 4]),
      kinds,
      names: fields.slice(i + 6, end),
    };
    const { mtimeMs, ctimeMs, dev, ino } = listing;
    if (![mtimeMs, ctimeMs, dev, ino].every(Number.isFinite)) return new Map();
    out.set(real, listing);
    i = end;
  }
  return out;
}

const KINDS = /^[dlf]*$/;
