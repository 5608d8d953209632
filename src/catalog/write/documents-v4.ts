/**
 * The documents of policy bm25f.v4 (docs/ranking.md §10), as a publish stores them: each
 * revision's body kept as its lines' terms with each line's template key (`revisions.body_lines`,
 * text/template-lines.ts) and the sorted set of those keys (`revisions.line_keys`); a serving row's
 * fields from its revision — name, keywords and tags, the description (with `when_to_use` and
 * Codex's `metadata.short-description`) less its boundary clauses ("do not use for …"), the body
 * less its template lines (its counts kept in the postings since issue 33; `serving.body_tf` before), and the boundary clauses as a field
 * of their own. A template line is a line whose key TEMPLATE_MIN_SKILLS or more served skills
 * share. Pure encoding and counting (and BodyHandoff, the lines an ingest hands its publish): the
 * writes live in ingest.ts and publish.ts.
 */
import { inflateRawSync } from 'node:zlib';
import { analyseBodyLine, analyzeTermsV4, nameWords, splitBoundaries } from '../../text/index.js';
import { BODY_INDEX_CHARS } from './postings.js';
import { COMPACT_BODY, compactTerm, decodeForwardHeadV4 } from './body-counts.js';

export { decodeForwardHeadV4 };
import { deflateRawFitted } from '../store/deflate.js';

/**
 * How many served skills must share a line (but for their own names) before it is a template line:
 * 10. Measured on the trigger dev set with the real corpus as distractors (docs/ranking.md §10):
 * 5, 10 and 20 rank alike there (top-1 0.749 / 0.749 / 0.747); 10 kept apibench-torchhub's shared
 * API-call lines, which 5 dropped (nDCG@10 0.301 against 0.294).
 */
export const TEMPLATE_MIN_SKILLS = 10;

/** The BM25F document a catalog stores: only v4's since migration 6 (store/layout.ts). */
export type IndexKind = 'v4';

/** The v4 fields of one document, per term: frequency in name, keywords, description, body, boundary. */
export type V4Counts = [number, number, number, number, number];

/** One stored body line: its template key (none for a line too short to count) and its terms. */
export interface BodyLine {
  readonly key: number | undefined;
  readonly terms: readonly string[];
}

/**
 * A revision's body as v4 stores it (the columns of migration 4). `revisions.body_v4` (the whole
 * body's counts as JSON) is no longer written: a publish derives every served body's counts from its
 * lines and keeps them in the postings (on the serving row, `serving.body_tf`, before issue 33);
 * revisions ingested before keep theirs.
 */
export interface StoredBodyV4 {
  /**
   * The lines' keys and terms, deflated text (one line per body line with terms: its base-36 key
   * or nothing, a tab, the terms): what a publish reads to take template lines out.
   */
  readonly lines: Buffer;
  /** The distinct template keys, sorted, as 32-bit little-endian integers. */
  readonly keys: Buffer;
  /** The lines as analysed, for a publish in the same `index` to use without inflating `lines`. */
  readonly analysed: AnalysedBody;
}

/**
 * A body's lines as analysed, flat (three arrays a revision rather than two objects a line: a
 * BodyHandoff holds the bodies of a whole index until its publish): line `i` has the template key
 * `keys[i]` (NO_KEY for none) and the terms `terms[ends[i - 1] ?? 0]` up to `terms[ends[i]]`.
 */
export interface AnalysedBody {
  readonly keys: readonly number[];
  readonly ends: readonly number[];
  readonly terms: readonly string[];
}

/** The key of a line of an AnalysedBody that has none (a template key is a 32-bit unsigned integer). */
export const NO_KEY = -1;

/** `lines` as an AnalysedBody. */
export function flatLines(lines: readonly BodyLine[]): AnalysedBody {
  const keys: number[] = [];
  const ends: number[] = [];
  const terms: string[] = [];
  for (const l of lines) {
    keys.push(l.key ?? NO_KEY);
    for (const t of l.terms) terms.push(t);
    ends.push(terms.length);
  }
  return { keys, ends, terms };
}

/** Analyses the first BODY_INDEX_CHARS characters of a body as v4 stores them. */
export function encodeBodyV4(body: string, name: string): StoredBodyV4 {
  const names = nameWords(name);
  const keys = new Set<number>();
  const analysed = { keys: [] as number[], ends: [] as number[], terms: [] as string[] };
  let text = '';
  for (const line of body.slice(0, BODY_INDEX_CHARS).split('\n')) {
    const { terms, key } = analyseBodyLine(line, names);
    if (terms.length === 0) continue;
    if (key !== undefined) keys.add(key);
    text += `${key === undefined ? '' : key.toString(36)}\t${terms.join(' ')}\n`;
    analysed.keys.push(key ?? NO_KEY);
    for (const t of terms) analysed.terms.push(t);
    analysed.ends.push(analysed.terms.length);
  }
  const sorted = Uint32Array.from(keys).sort();
  return {
    lines: deflateRawFitted(Buffer.from(text, 'utf8')),
    keys: Buffer.from(sorted.buffer, sorted.byteOffset, sorted.byteLength),
    analysed,
  };
}

/** The lines of a stored v4 body (none for null: a revision ingested for another policy). */
export function decodeBodyV4(blob: Uint8Array | null): BodyLine[] {
  if (blob === null || blob.byteLength === 0) return [];
  const out: BodyLine[] = [];
  for (const line of inflateRawSync(blob).toString('utf8').split('\n')) {
    if (line === '') continue;
    const tab = line.indexOf('\t');
    const k = line.slice(0, tab);
    out.push({
      key: k === '' ? undefined : parseInt(k, 36),
      terms: line.slice(tab + 1).split(' '),
    });
  }
  return out;
}

/** The template keys stored for a revision (line_keys), as numbers. */
export function decodeLineKeys(keys: Uint8Array | null): Uint32Array {
  if (keys === null || keys.byteLength === 0) return new Uint32Array(0);
  const copy = new Uint8Array(keys.byteLength);
  copy.set(keys);
  return new Uint32Array(copy.buffer);
}

/** The body's term frequencies and length without its template lines. */
export function effectiveBody(
  lines: readonly BodyLine[],
  template: ReadonlySet<number>,
): { tf: Map<string, number>; len: number } {
  const tf = new Map<string, number>();
  let len = 0;
  for (const l of lines) {
    if (l.key !== undefined && template.has(l.key)) continue;
    len += l.terms.length;
    for (const t of l.terms) tf.set(t, (tf.get(t) ?? 0) + 1);
  }
  return { tf, len };
}

/** What a v4 document is made of besides its body. */
export interface V4Source {
  readonly name: string;
  readonly keywords: readonly string[];
  readonly tags: readonly string[];
  readonly description: string;
  readonly when_to_use?: string | null;
  /** The stored frontmatter (for `metadata.short-description`). */
  readonly frontmatter?: Readonly<Record<string, unknown>>;
}

/** The description text v4 reads: description, `when_to_use`, Codex's `metadata.short-description`. */
export function descriptionTextV4(s: V4Source): string {
  const meta = s.frontmatter?.['metadata'];
  const short =
    meta && typeof meta === 'object' && !Array.isArray(meta)
      ? (meta as Record<string, unknown>)['short-description']
      : undefined;
  let text = s.description;
  if (s.when_to_use) text += '\n' + s.when_to_use;
  if (typeof short === 'string' && short.trim() !== '' && !s.description.includes(short.trim()))
    text += '\n' + short;
  return text;
}

/** A v4 document: per-term counts in its five fields, and each field's length in terms. */
export interface V4Document {
  readonly terms: ReadonlyMap<string, V4Counts>;
  readonly lens: V4Counts;
}

/**
 * The v4 document of a revision from its fields and its effective body: its counts, or its lines
 * less those whose key is in `template` (counted here as effectiveBody counts them, in the same
 * order, without building the body's own Map).
 */
export function documentTermsV4(
  s: V4Source,
  body:
    | { tf: ReadonlyMap<string, number>; len: number }
    | { lines: AnalysedBody; template: ReadonlySet<number> },
): V4Document {
  const terms = new Map<string, V4Counts>();
  const lens: V4Counts = [0, 0, 0, 0, 0];
  const add = (field: 0 | 1 | 2 | 4, list: readonly string[]): void => {
    lens[field] = list.length;
    for (const t of list) {
      let c = terms.get(t);
      if (!c) terms.set(t, (c = [0, 0, 0, 0, 0]));
      c[field]++;
    }
  };
  const parts = splitBoundaries(descriptionTextV4(s));
  add(0, analyzeTermsV4(s.name));
  add(1, analyzeTermsV4([...s.keywords, ...s.tags].join(' , ')));
  add(2, analyzeTermsV4(parts.positive));
  add(4, analyzeTermsV4(parts.boundary));
  if ('tf' in body) {
    lens[3] = body.len;
    for (const [t, n] of body.tf) {
      let c = terms.get(t);
      if (!c) terms.set(t, (c = [0, 0, 0, 0, 0]));
      c[3] += n;
    }
    return { terms, lens };
  }
  const { keys, ends, terms: body3 } = body.lines;
  for (let i = 0, start = 0; i < keys.length; start = ends[i++]!) {
    const key = keys[i]!;
    if (key !== NO_KEY && body.template.has(key)) continue;
    const end = ends[i]!;
    lens[3] += end - start;
    for (let j = start; j < end; j++) {
      const t = body3[j]!;
      let c = terms.get(t);
      if (!c) terms.set(t, (c = [0, 0, 0, 0, 0]));
      c[3]++;
    }
  }
  return { terms, lens };
}

/**
 * The stored form of a v4 row's forward terms (`serving.fwd`) for the terms of its name, keywords,
 * description and boundary clauses (x); body frequencies stay with the revision's lines. Compact
 * text since issue #26's second pass: `~` followed by one group per distinct count vector,
 * `|n,k,d,x` and then ` <term>` for each term with those counts, groups in the order their first
 * term was seen (`~|1,0,0,0 pdf|0,0,2,0 tabl extract`). A row holding a term the form cannot (see
 * compactTerm) is written as JSON `{ term: [n, k, d, x] }`, keys in first-seen order, as every row
 * was before; readers take either (decodeForwardHeadV4).
 */
export function encodeForwardV4(terms: ReadonlyMap<string, V4Counts>): string {
  const groups = new Map<string, string>();
  for (const [t, c] of terms) {
    if (c[0] === 0 && c[1] === 0 && c[2] === 0 && c[4] === 0) continue;
    if (!compactTerm(t)) return encodeForwardV4Json(terms);
    const key = `${c[0]},${c[1]},${c[2]},${c[4]}`;
    const g = groups.get(key);
    groups.set(key, g === undefined ? ` ${t}` : `${g} ${t}`);
  }
  let out = COMPACT_BODY;
  for (const [key, g] of groups) out += `|${key}${g}`;
  return out;
}

/** `serving.fwd` as JSON `{ term: [n, k, d, x] }`, keys in first-seen order (written before issue #26). */
export function encodeForwardV4Json(terms: ReadonlyMap<string, V4Counts>): string {
  let out = '{';
  for (const [t, c] of terms) {
    if (c[0] === 0 && c[1] === 0 && c[2] === 0 && c[4] === 0) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(t)}:[${c[0]},${c[1]},${c[2]},${c[4]}]`;
  }
  return out + '}';
}

/** A v4 row's forward terms with all five fields, from `serving.fwd` and its effective body. */
export function decodeForwardV4(
  fwd: string,
  body: { tf: ReadonlyMap<string, number> },
): Map<string, V4Counts> {
  const out = new Map<string, V4Counts>();
  const head = decodeForwardHeadV4(fwd);
  for (const t in head) {
    const c = head[t]!;
    out.set(t, [c[0]!, c[1]!, c[2]!, 0, c[3] ?? 0]);
  }
  for (const [t, n] of body.tf) {
    const c = out.get(t);
    if (c) c[3] = n;
    else out.set(t, [0, 0, 0, n, 0]);
  }
  return out;
}

/** The template keys of a generation: those `TEMPLATE_MIN_SKILLS` or more of `rows` share. */
export function templateKeysOf(rows: Iterable<Uint32Array>): Set<number> {
  const count = new Map<number, number>();
  for (const keys of rows) for (const k of keys) count.set(k, (count.get(k) ?? 0) + 1);
  const out = new Set<number>();
  for (const [k, n] of count) if (n >= TEMPLATE_MIN_SKILLS) out.add(k);
  return out;
}

/** A template key set as stored in meta: sorted keys, base-36, comma-separated. */
export function encodeTemplateKeys(keys: ReadonlySet<number>): string {
  return [...keys]
    .sort((a, b) => a - b)
    .map((k) => k.toString(36))
    .join(',');
}

/** The template key set stored in meta (empty for undefined). */
export function decodeTemplateKeys(text: string | undefined): Set<number> {
  if (!text) return new Set();
  return new Set(text.split(',').map((k) => parseInt(k, 36)));
}

/**
 * Most body terms a BodyHandoff holds (about 8 bytes each, the term strings being the stem memo's):
 * 4,000,000, some 32 MB, the bodies of 40,000 generated skills or of 3,000 that fill BODY_INDEX_CHARS.
 * Past it, revisions are left out and the publish inflates their stored lines as before.
 */
export const HANDOFF_TERMS = 4_000_000;

/**
 * Most bytes of file texts a BodyHandoff holds: 64 MiB, the SKILL.md files of about 50,000
 * generated skills or 5,000 real ones. Past it, the texts are read from disk again as before.
 */
export const HANDOFF_TEXT_BYTES = 64 * 1024 * 1024;

/**
 * What an ingest hands to the rest of the same `index`, by revision_id: the v4 body lines it
 * analysed, so the publish takes template lines out without reading, inflating and splitting what
 * was just written, and the bytes of the files it read, so the revision texts kept for `diff`
 * (revision-texts.ts) need not read every file again. Each bounded (`limit` terms, `textLimit`
 * bytes); a revision not held is read from the catalog or from its file.
 */
export class BodyHandoff {
  private readonly byRevision = new Map<string, AnalysedBody>();
  private readonly texts = new Map<string, Buffer>();
  private terms = 0;
  private textBytes = 0;

  constructor(
    private readonly limit = HANDOFF_TERMS,
    private readonly textLimit = HANDOFF_TEXT_BYTES,
  ) {}

  /** Holds the lines of `revisionId` unless that would pass the bound. */
  put(revisionId: string, lines: AnalysedBody): void {
    const n = lines.terms.length;
    if (this.terms + n > this.limit) return;
    this.terms += n;
    this.byRevision.set(revisionId, lines);
  }

  /** The lines held for `revisionId`, if any. */
  get(revisionId: string): AnalysedBody | undefined {
    return this.byRevision.get(revisionId);
  }

  /**
   * Holds the bytes of the file read as `revisionId` unless that would pass the bound: the exact
   * bytes whose sha256 is `revisionId` (the revision texts store them without hashing them again).
   */
  putText(revisionId: string, bytes: Buffer): void {
    if (this.texts.has(revisionId) || this.textBytes + bytes.length > this.textLimit) return;
    this.textBytes += bytes.length;
    this.texts.set(revisionId, bytes);
  }

  /** The bytes held for `revisionId`, if any (they hash to it: putText). */
  text(revisionId: string): Buffer | undefined {
    return this.texts.get(revisionId);
  }
}
