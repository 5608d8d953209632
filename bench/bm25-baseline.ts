/**
 * The plain BM25 baselines of the dev benchmark, computed in the bench run exactly as the shared
 * scorer computes them (../shared/bench/tools/score.py, which ../shared/bench/trigger/score.py
 * calls): every SKILL.md under a folder (duplicates included, distractors named `extra:<relative
 * folder>`), name / description / body from the frontmatter (a folder without a name gets the
 * folder's), one SQLite FTS5 table with the `porter unicode61` tokenizer, and the query as an OR of
 * its distinct lower-cased letter-or-digit runs, score.py's English stop-words dropped (`+stop`),
 * ordered by `bm25()` and then name, 100 deep. Optional column weights give the weighted-column
 * variant (`bm25(t, 3, 2, 0.3)`), the strongest plain BM25 on the trigger set.
 *
 * It never touches a catalog or the router: it is the yardstick the router's policies are read
 * against (docs/ranking.md §10, bench/results/quality.md).
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { parseFrontmatter, splitFrontmatter } from '../src/skills/frontmatter.js';

/** Ranks looked at (score.py CUTOFF). */
export const BASELINE_DEPTH = 100;

/**
 * score.py's English stop-words (STOPWORDS in ../shared/bench/tools/score.py), kept apart from
 * the router's own list (src/text/stop-words.ts, Snowball's), which differs in 25 words: the
 * baselines must be the scorer's to the query.
 */
export const SCORE_PY_STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had has have having
he her here hers herself him himself his how i if in into is it its itself just let me more most my myself no nor
not now of off on once only or other our ours ourselves out over own same she should so some such than that the
their theirs them themselves then there these they this those through to too under until up very was we were what
when where which while who whom why will with would you your yours yourself yourselves`.split(
    /\s+/,
  ),
);

/** One skill as the baseline indexes it. */
export interface BaselineSkill {
  /** The ranking id: the frontmatter name (or folder name), `extra:<folder>` for distractors. */
  readonly name: string;
  readonly description: string;
  readonly body: string;
}

/** A query to rank. */
export interface BaselineQuery {
  readonly id: string;
  readonly query: string;
}

/** How a baseline indexes and ranks. */
export interface BaselineMethod {
  /** Index the body too (`ndb`), else name + description (`nd`). */
  readonly body: boolean;
  /** Drop score.py's stop-words from the query. */
  readonly stop: boolean;
  /** Column weights for bm25() (name, description[, body]); default all 1. */
  readonly weights?: readonly number[];
}

// score.py as_text: lists and mappings joined by spaces, null as empty.
function asText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(asText).join(' ');
  if (typeof v === 'object')
    return Object.values(v as Record<string, unknown>)
      .map(asText)
      .join(' ');
  return String(v);
}

// Every folder holding a SKILL.md under `dir`, in score.py's os.walk order (sorted, parents first).
function skillFolders(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    const entries = readdirSync(d, { withFileTypes: true });
    if (entries.some((e) => e.isFile() && e.name === 'SKILL.md')) out.push(d);
    for (const e of entries.filter((x) => x.isDirectory()).sort((a, b) => cmp(a.name, b.name))) {
      walk(path.join(d, e.name));
    }
  };
  walk(dir);
  return out;
}

// Python's str ordering (code points), not localeCompare.
function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The skills of `dir` as score.py's load_catalog reads them; with `extra`, named
 * `extra:<folder relative to dir>` as its `--extra-catalog` does. The frontmatter goes through the
 * project's parser with its lenient reading (the 9 trigger skills strict YAML refuses are read as
 * score.py's fallback reads them); a file whose frontmatter cannot be read at all keeps its folder
 * name and an empty description, and is counted in `unreadable`.
 */
export function loadBaselineSkills(
  dir: string,
  extra = false,
): { skills: BaselineSkill[]; unreadable: number } {
  const skills: BaselineSkill[] = [];
  let unreadable = 0;
  for (const folder of skillFolders(dir)) {
    const text = readFileSync(path.join(folder, 'SKILL.md'), 'utf8').replace(/^\ufeff/, '');
    let fm: Record<string, unknown> = {};
    let body = text;
    const split = splitFrontmatter(text, folder);
    if (split.ok) {
      body = text.slice(split.bodyOffset);
      const parsed = parseFrontmatter(split.yaml, folder, split.yamlLine);
      if (parsed.ok) fm = parsed.data;
      else unreadable++;
    }
    const rel = path.relative(dir, folder).split(path.sep).join('/');
    const name = extra ? `extra:${rel}` : asText(fm['name']).trim() || path.basename(folder);
    skills.push({ name, description: asText(fm['description']), body });
  }
  return { skills, unreadable };
}

/** The FTS5 MATCH expression score.py builds for `query` ('' when no word is left). */
export function matchExpression(query: string, stop: boolean): string {
  let toks = [...new Set((query.match(/[\p{L}\p{N}]+/gu) ?? []).map((t) => t.toLowerCase()))];
  if (stop) toks = toks.filter((t) => !SCORE_PY_STOP_WORDS.has(t));
  return toks.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
}

/** Rankings (query id → names, best first, at most BASELINE_DEPTH) of one baseline method. */
export function baselineRankings(
  skills: readonly BaselineSkill[],
  queries: readonly BaselineQuery[],
  method: BaselineMethod,
): Map<string, string[]> {
  const cols = method.body ? ['name', 'description', 'body'] : ['name', 'description'];
  const db = new Database(':memory:');
  try {
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(${cols.join(', ')}, tokenize='porter unicode61')`);
    const ins = db.prepare(
      `INSERT INTO t (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
    );
    db.transaction(() => {
      for (const s of skills) {
        ins.run(...(method.body ? [s.name, s.description, s.body] : [s.name, s.description]));
      }
    })();
    const weights = method.weights ? `, ${method.weights.map(Number).join(', ')}` : '';
    const q = db.prepare(
      `SELECT name FROM t WHERE t MATCH ? ORDER BY bm25(t${weights}), name LIMIT ${BASELINE_DEPTH}`,
    );
    const out = new Map<string, string[]>();
    for (const query of queries) {
      const expr = matchExpression(query.query, method.stop);
      out.set(query.id, expr ? (q.all(expr) as { name: string }[]).map((r) => r.name) : []);
    }
    return out;
  } finally {
    db.close();
  }
}
