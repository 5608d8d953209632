/**
 * `readSubstrate`: the progressive read of docs/substrate.md. It opens the INDEX.md tables first and no
 * entry yet; decides at the index whatever the row can decide (topic clear match or clear
 * non-match, reviewer `Fires on` overlap); opens an entry's summary only where the index could
 * not decide or where the query needs frontmatter (scope globs, tags); considers the body only
 * where the summary left a topic ambiguous. It never opens an entry the decision did not need and
 * never reads a path outside the root. Hits come back ranked (rank.ts) with their stop depth.
 */
import path from 'node:path';
import { assertKnownOptions, optionKeys, problem, type Problem } from '../errors.js';
import { entryBody, readEntrySummary, summaryIsComplete, type EntrySummary } from './entry.js';
import { type EntryLocation, type SubstrateFiles } from './files.js';
import { globIncludes, globOverlap, parseGlob, type Glob } from './glob.js';
import { checkRoot, openIndexes, typesToRead } from './load-index.js';
import { parseQuery, tagNearMissKey, type ParsedQuery } from './query.js';
import { rankHits } from './rank.js';
import {
  compareTerms,
  describeEvidence,
  evidenceOf,
  judge,
  type TermEvidence,
} from './relevance.js';
import type {
  IndexRow,
  MatchStrength,
  StopDepth,
  SubstrateHit,
  SubstrateReport,
  SubstrateType,
  TagNearMiss,
} from './types.js';

/** Options of `readSubstrate`. Unknown keys are refused with INVALID_ARGUMENT. */
export interface ReadSubstrateOptions {
  /** Absolute path of the substrate root (the folder holding `adr/`, `reviewer/`…). Required. */
  readonly root: string;
  /** Read only this type's index and entries. Default: all five types. */
  readonly type?: SubstrateType;
  /** Add `opened` (every file opened, in order, and why) to the report. Default false. */
  readonly explain?: boolean;
  /** Size cap per file in bytes. Default 1 MiB. */
  readonly maxBytes?: number;
}

const READ_OPTION_KEYS = optionKeys<ReadSubstrateOptions>()('root', 'type', 'explain', 'maxBytes');

/**
 * Reads the substrate at `options.root` for `query` (a topic, a path glob with `/` or `*`, or
 * `tag:value`) and returns the ranked hits, the problems met and, with `explain`, the files
 * opened. Throws INVALID_QUERY, INVALID_ARGUMENT (unknown option or type, relative root) and
 * SUBSTRATE_NOT_FOUND (no folder at the root). Bad tables and entries are problems, never throws.
 */
export function readSubstrate(query: string, options: ReadSubstrateOptions): SubstrateReport {
  assertKnownOptions(options, READ_OPTION_KEYS, 'readSubstrate');
  const types = typesToRead(options.type);
  checkRoot(options.root);
  const parsed = parseQuery(query);
  const { files, tables, problems } = openIndexes(
    options,
    types,
    'index: every read starts at the index table',
  );
  const reader = new EntryReader(files, problems);
  const hits: SubstrateHit[] = [];
  const nearMisses: TagNearMiss[] = [];
  for (const table of tables) {
    for (const row of table.rows) {
      const decided = decide(parsed, row, reader, nearMisses);
      if (decided !== undefined) hits.push(toHit(row, decided.depth, decided.match));
    }
  }
  return {
    query,
    query_kind: parsed.kind,
    type_filter: options.type ?? null,
    root: files.root,
    terms: parsed.kind === 'topic' ? [...parsed.terms] : [],
    hits: rankHits(hits),
    problems,
    ...(options.explain === true ? { opened: files.opened() } : {}),
    ...(options.explain === true && parsed.kind === 'tag' ? { tag_near_misses: nearMisses } : {}),
  };
}

type Decision = { readonly depth: StopDepth; readonly match: MatchStrength } | undefined;

function decide(
  q: ParsedQuery,
  row: IndexRow,
  reader: EntryReader,
  nearMisses: TagNearMiss[],
): Decision {
  if (q.kind === 'topic') return decideTopic(q.terms, row, reader);
  if (q.kind === 'path glob') return decideGlob(q.glob, row, reader);
  const entry = reader.summary(row, 'summary: a tag query needs the frontmatter tags');
  if (entry === undefined) return undefined;
  // Tags match exactly: `tag:security` never matches an entry tagged `Security` (a near miss).
  if (entry.summary.tags.some((t) => t === q.tag)) return { depth: 'summary', match: 'full' };
  const key = tagNearMissKey(q.tag);
  for (const t of entry.summary.tags) {
    if (tagNearMissKey(t) === key) nearMisses.push({ type: row.type, id: row.id, tag: t });
  }
  return undefined;
}

// Topic: judge at the index; read the summary only when ambiguous; the body only when still so.
function decideTopic(terms: readonly string[], row: IndexRow, reader: EntryReader): Decision {
  const k = terms.length;
  const evidence = evidenceOf(row.description, row.category);
  let found = compareTerms(terms, evidence);
  const atIndex = decisionAt('index', found, k);
  if (atIndex !== 'ambiguous') return atIndex;

  const entry = reader.summary(
    row,
    `summary: ambiguous at the index: ${describeEvidence(found, k)}`,
  );
  if (entry === undefined) return undefined;
  const s = entry.summary;
  const summaryText = [s.summary ?? '', s.tags.join(' '), s.predicate ?? ''];
  for (const stemmed of evidenceOf(...summaryText)) evidence.add(stemmed);
  found = compareTerms(terms, evidence);
  const atSummary = decisionAt('summary', found, k);
  if (atSummary !== 'ambiguous') return atSummary;

  const body = reader.body(
    entry,
    `body: ambiguous after the summary: ${describeEvidence(found, k)}`,
  );
  // A body that cannot be read (its problem is recorded) leaves the entry ambiguous: excluded.
  if (body === undefined) return undefined;
  for (const stemmed of evidenceOf(body)) evidence.add(stemmed);
  const atBody = decisionAt('body', compareTerms(terms, evidence), k);
  // The body is the last depth: what is still ambiguous there is excluded.
  return atBody === 'ambiguous' ? undefined : atBody;
}

// A topic's decision at `depth` from the `k` terms' evidence there: a hit (full or partial), out
// (non-match), or 'ambiguous' when the next depth must be read.
function decisionAt(depth: StopDepth, found: TermEvidence, k: number): Decision | 'ambiguous' {
  const verdict = judge(found, k);
  if (verdict === 'full' || verdict === 'partial') return { depth, match: verdict };
  return verdict === 'non-match' ? undefined : 'ambiguous';
}

// Path glob: reviewers decide at the index by their Fires on globs; everything else (and a
// reviewer row without usable Fires on globs) needs the frontmatter scope globs.
function decideGlob(query: Glob, row: IndexRow, reader: EntryReader): Decision {
  const rowGlobs = row.fires_on.flatMap((g) => reader.glob(g, row));
  if (rowGlobs.length > 0) return globDecision(query, rowGlobs, 'index');
  const why =
    row.type === 'reviewer'
      ? 'summary: the index row has no usable Fires on globs, so the frontmatter scope decides'
      : 'summary: a path glob query needs the frontmatter scope globs';
  const entry = reader.summary(row, why);
  if (entry === undefined) return undefined;
  const scope = entry.summary.scope.flatMap((g) => {
    const p = parseGlob(g);
    return p.ok ? [p.glob] : [];
  });
  return globDecision(query, scope, 'summary');
}

function globDecision(query: Glob, globs: readonly Glob[], depth: StopDepth): Decision {
  if (!globs.some((g) => globOverlap(query, g) !== undefined)) return undefined;
  // Full when some glob provably covers every path the query names; partial when they only overlap.
  return { depth, match: globs.some((g) => globIncludes(g, query)) ? 'full' : 'partial' };
}

function toHit(row: IndexRow, depth: StopDepth, match: MatchStrength): SubstrateHit {
  // Shown only when the path stays lexically inside the type folder; a path that does not was
  // never opened and is reported when a read needs it.
  const rel =
    row.path === undefined
      ? undefined
      : path.posix.normalize(`${row.type}/${row.path.replace(/\\/g, '/')}`);
  const inside =
    rel !== undefined && rel.startsWith(`${row.type}/`) && !path.posix.isAbsolute(row.path ?? '');
  return {
    type: row.type,
    id: row.id,
    description: row.description,
    stop_depth: depth,
    match,
    ...(inside ? { path: rel } : {}),
  };
}

/** An entry read at summary depth: where it is, its text, and its summary view. */
interface OpenEntry {
  readonly entry: EntryLocation;
  readonly summary: EntrySummary;
}

/** Opens entries for one read, collecting their problems; each entry's problems are kept once. */
class EntryReader {
  constructor(
    private readonly files: SubstrateFiles,
    private readonly problems: Problem[],
  ) {}

  /** Opens the entry of `row` and reads its frontmatter and Summary section, or records why not. */
  summary(row: IndexRow, why: string): OpenEntry | undefined {
    // A row without a path was reported once by the index table; it can be judged at the index only.
    if (row.path === undefined) return undefined;
    const located = this.files.locateEntry(row);
    if (!located.ok) {
      this.problems.push(located.problem);
      return undefined;
    }
    // A bounded read: the entry's start up to the heading after ## Summary, never its body.
    const opened = this.files.openSummary(
      located.entry.abs,
      located.entry.rel,
      why,
      summaryIsComplete,
    );
    if (!opened.ok) {
      this.problems.push(opened.problem);
      return undefined;
    }
    const summary = readEntrySummary(opened.text, located.entry.rel);
    this.problems.push(...summary.problems);
    return { entry: located.entry, summary };
  }

  /**
   * The body of an entry already opened at summary depth: the whole file is read now (size-capped),
   * or undefined with its problem recorded.
   */
  body(open: OpenEntry, why: string): string | undefined {
    const whole = this.files.open(open.entry.abs, open.entry.rel, 'body', why);
    if (!whole.ok) {
      this.problems.push(whole.problem);
      return undefined;
    }
    return entryBody(whole.text, open.summary);
  }

  /** `source` parsed as a glob of `row`'s Fires on cell, or a MALFORMED_ROW problem and nothing. */
  glob(source: string, row: IndexRow): Glob[] {
    const p = parseGlob(source);
    if (p.ok) return [p.glob];
    const label = this.files.indexLabel(row.type);
    this.problems.push(
      problem(
        'MALFORMED_ROW',
        label,
        `${label}:${row.line}: row ${row.id}: Fires on glob ${JSON.stringify(source)} ${p.reason}`,
        row.line,
      ),
    );
    return [];
  }
}
