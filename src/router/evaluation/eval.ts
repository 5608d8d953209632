/**
 * Retrieval evaluation (issue #3 `skilldex eval`, `search --batch`): reads JSONL query files in the
 * format of shared/bench (`{"id","query","relevant":[…],"graded"?:{…}}`) and computes top-1,
 * recall@5, MRR (first relevant within the top 100) and nDCG@10 (linear gain, log2 discount), as the
 * bench scorer defines them. Pure metric functions; the file parsing names the bad line.
 */
import { SkilldexError } from '../../errors.js';

/** One labelled query. */
export interface LabelledQuery {
  readonly id: string;
  readonly query: string;
  readonly relevant: readonly string[];
  readonly graded?: Readonly<Record<string, number>>;
}

/** Metrics over a set of queries (means; an empty ranking scores 0). */
export interface Metrics {
  readonly queries: number;
  readonly top1: number;
  readonly recall_at_5: number;
  readonly mrr: number;
  readonly ndcg_at_10: number;
}

/** Depth of the ranking MRR looks into. */
export const MRR_DEPTH = 100;

/**
 * Parses a JSONL file of queries. Each non-blank line must be an object with string `id` and
 * `query`; with `labelled`, also a `relevant` array of strings. INVALID_INPUT_FILE names the line.
 */
export function parseQueryLines(text: string, file: string, labelled: boolean): LabelledQuery[] {
  return parseQueryLinesTolerant(text, file, labelled).map((q) => {
    if ('error' in q) throw q.error;
    return q;
  });
}

/** A query line that could not be used: its id when one could be read (else null), and why. */
export interface BadQueryLine {
  readonly id: string | null;
  readonly line: number;
  readonly error: SkilldexError;
}

/**
 * As parseQueryLines, but a bad line becomes a BadQueryLine in its place instead of ending the
 * parse, so a batch can answer it with an error line and go on (`search --batch`).
 */
export function parseQueryLinesTolerant(
  text: string,
  file: string,
  labelled: boolean,
): (LabelledQuery | BadQueryLine)[] {
  const out: (LabelledQuery | BadQueryLine)[] = [];
  const ids = new Set<string>();
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `${file}:${i + 1}`;
    const bad = (id: string | null, message: string): void => {
      out.push({
        id,
        line: i + 1,
        error: new SkilldexError('INVALID_INPUT_FILE', `${where}: ${message}`, {
          file,
          line: i + 1,
        }),
      });
    };
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (err) {
      bad(null, `not valid JSON (${(err as Error).message})`);
      return;
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) {
      bad(null, 'each line must be a JSON object');
      return;
    }
    const o = v as Record<string, unknown>;
    const id =
      typeof o['id'] === 'string' || typeof o['id'] === 'number' ? String(o['id']) : undefined;
    if (id === undefined || typeof o['query'] !== 'string') {
      bad(id ?? null, 'needs "id" and "query" (a string)');
      return;
    }
    if (ids.has(id)) {
      bad(id, `id ${JSON.stringify(id)} appears twice`);
      return;
    }
    ids.add(id);
    const relevant = o['relevant'];
    if (labelled && (!Array.isArray(relevant) || !relevant.every((r) => typeof r === 'string'))) {
      bad(id, 'needs "relevant" (an array of skill ids)');
      return;
    }
    const g = o['graded'];
    if (
      g !== undefined &&
      (!g ||
        typeof g !== 'object' ||
        Array.isArray(g) ||
        !Object.values(g).every((x) => typeof x === 'number' && Number.isFinite(x)))
    ) {
      bad(id, '"graded" must map skill ids to numbers');
      return;
    }
    const graded = g as Record<string, number> | undefined;
    out.push({
      id,
      query: o['query'],
      relevant: Array.isArray(relevant) ? (relevant as string[]) : [],
      ...(graded ? { graded } : {}),
    });
  });
  return out;
}

/** Metrics of one ranking against one labelled query. */
export function scoreRanking(
  ranking: readonly string[],
  q: LabelledQuery,
): Omit<Metrics, 'queries'> {
  const rel = new Set(q.relevant);
  // As the bench scorer: non-empty grades replace the binary gains of `relevant` entirely.
  const grades =
    q.graded && Object.keys(q.graded).length > 0
      ? new Map(Object.entries(q.graded))
      : new Map([...rel].map((id) => [id, 1]));
  const gain = (id: string): number => grades.get(id) ?? 0;
  const top1 = ranking.length > 0 && rel.has(ranking[0]!) ? 1 : 0;
  const recall =
    rel.size === 0
      ? 0
      : [...new Set(ranking.slice(0, 5))].filter((id) => rel.has(id)).length / rel.size;
  const first = ranking.slice(0, MRR_DEPTH).findIndex((id) => rel.has(id));
  const mrr = first < 0 ? 0 : 1 / (first + 1);
  let dcg = 0;
  ranking.slice(0, 10).forEach((id, i) => (dcg += gain(id) / Math.log2(i + 2)));
  const ideal = [...grades.values()].sort((a, b) => b - a).slice(0, 10);
  let idcg = 0;
  ideal.forEach((g, i) => (idcg += g / Math.log2(i + 2)));
  return { top1, recall_at_5: recall, mrr, ndcg_at_10: idcg > 0 ? dcg / idcg : 0 };
}

/** Mean metrics over per-query scores. */
export function meanMetrics(scores: readonly Omit<Metrics, 'queries'>[]): Metrics {
  const n = scores.length;
  const mean = (f: (s: Omit<Metrics, 'queries'>) => number): number =>
    n === 0 ? 0 : scores.reduce((a, s) => a + f(s), 0) / n;
  return {
    queries: n,
    top1: mean((s) => s.top1),
    recall_at_5: mean((s) => s.recall_at_5),
    mrr: mean((s) => s.mrr),
    ndcg_at_10: mean((s) => s.ndcg_at_10),
  };
}

/** Macro average of several files' metrics (each file weighs the same). */
export function macroAverage(rows: readonly Metrics[]): Metrics {
  return { ...meanMetrics(rows), queries: rows.reduce((a, r) => a + r.queries, 0) };
}
