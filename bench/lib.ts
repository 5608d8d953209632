/**
 * Shared benchmark helpers: timing, percentiles, generated text, and Markdown results under
 * bench/results/. Benchmarks compare against a baseline measured in the same process run; the
 * figures are ratios to read, never assertions.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (bench scripts run from dist-bench/bench/). */
export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Scratch folder for generated trees and catalogs (git-ignored). */
export const WORK = path.join(REPO, 'bench', '.work');

/** Milliseconds since an arbitrary origin, sub-millisecond resolution. */
export function now(): number {
  return performance.now();
}

/** Runs `fn` and returns its result and elapsed milliseconds. */
export function time<T>(fn: () => T): { value: T; ms: number } {
  const t0 = now();
  const value = fn();
  return { value, ms: now() - t0 };
}

/** The p-th percentile (0–100) of `xs` (nearest-rank). */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[i]!;
}

/** Median of `xs`. */
export function median(xs: readonly number[]): number {
  return percentile(xs, 50);
}

/** A small deterministic PRNG (mulberry32) so generated data is the same on every run. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// A vocabulary of real words for generated skill text (skill-library flavoured, ~600 words).
const WORDS = (
  'pdf document extract text table form merge split page image chart graph plot data csv excel spreadsheet ' +
  'json yaml xml parse validate schema convert format export import report summary summarize analyze ' +
  'analysis statistics regression test unit integration coverage lint format code review refactor ' +
  'typescript javascript python rust go java kotlin swift ruby php sql query database postgres mysql ' +
  'sqlite mongo redis cache queue kafka stream event log trace metric monitor alert incident deploy ' +
  'docker container kubernetes helm terraform cloud aws azure gcp lambda function serverless api rest ' +
  'graphql grpc http request response client server auth oauth token jwt session cookie security audit ' +
  'vulnerability scan dependency upgrade package npm pip cargo build compile bundle webpack vite react ' +
  'vue svelte angular component style css html accessibility layout responsive design figma mockup ' +
  'prototype wireframe user interface experience research interview survey feedback product roadmap ' +
  'planning sprint ticket issue bug fix debug profile performance optimize memory cpu latency ' +
  'throughput benchmark load stress chaos backup restore migrate migration schema version release ' +
  'changelog notes commit branch merge rebase git github gitlab pipeline workflow action ci cd ' +
  'email message letter draft write writing blog post article essay story copy marketing seo ' +
  'social media campaign newsletter translate translation language english spanish french german ' +
  'japanese chinese grammar spelling tone style edit proofread citation reference paper literature ' +
  'science biology chemistry physics math equation formula proof theorem model simulation experiment ' +
  'protein sequence genome dna rna molecule compound reaction drug clinical trial patient health ' +
  'medical diagnosis finance budget invoice accounting tax payroll expense revenue forecast stock ' +
  'trading portfolio risk legal contract compliance policy privacy gdpr license agreement review ' +
  'meeting calendar schedule agenda minutes transcript audio video speech recording podcast music ' +
  'photo camera render animation game engine shader texture mesh 3d print slide presentation deck ' +
  'keynote spreadsheet pivot formula macro automation script shell bash terminal command cli tool ' +
  'agent prompt llm embedding vector search index retrieval ranking recommendation classifier ' +
  'training dataset label annotation notebook jupyter pandas numpy matplotlib visualization dashboard ' +
  'map geo location weather travel flight hotel booking recipe food nutrition fitness workout sleep ' +
  'crm sales lead customer support ticket chat bot slack discord teams notion jira confluence wiki ' +
  'knowledge base faq onboarding documentation docs readme tutorial guide example template scaffold ' +
  'generator boilerplate config configuration environment secret vault key certificate tls dns ' +
  'network firewall proxy load balancer cdn storage bucket file upload download archive zip compress'
).split(/\s+/);

/** Zipf-distributed words from the vocabulary (rank r drawn with weight 1/r). */
export function zipfWords(rand: () => number, n: number): string[] {
  const out: string[] = [];
  const h = Math.log(WORDS.length + 1);
  for (let i = 0; i < n; i++) {
    const r = Math.floor(Math.exp(rand() * h)) - 1;
    out.push(WORDS[Math.min(WORDS.length - 1, Math.max(0, r))]!);
  }
  return out;
}

/**
 * A vocabulary of `size` words: the real words above as the frequent head, then deterministic
 * pronounceable pseudo-words as the long tail, so a generated catalog has the ~40,000-term
 * vocabulary of a real 100,000-skill library rather than 600 words that every skill shares.
 */
export function largeVocabulary(size = 40_000): readonly string[] {
  const out = [...WORDS];
  const onsets = [
    'b',
    'c',
    'd',
    'f',
    'g',
    'h',
    'k',
    'l',
    'm',
    'n',
    'p',
    'r',
    's',
    't',
    'v',
    'z',
    'br',
    'cl',
    'dr',
    'gr',
    'pl',
    'st',
    'tr',
    'sh',
  ];
  const vowels = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou'];
  const codas = ['', 'n', 'r', 's', 't', 'l', 'm', 'x', 'nd', 'st'];
  const seen = new Set(out);
  const rand = rng(4242);
  while (out.length < size) {
    const syllables = 2 + Math.floor(rand() * 3);
    let w = '';
    for (let i = 0; i < syllables; i++) {
      w +=
        onsets[Math.floor(rand() * onsets.length)]! +
        vowels[Math.floor(rand() * vowels.length)]! +
        codas[Math.floor(rand() * codas.length)]!;
    }
    if (!seen.has(w)) {
      seen.add(w);
      out.push(w);
    }
  }
  return out;
}

/** Zipf-distributed words drawn from `vocab` (rank r with weight 1/r). */
export function zipfFrom(vocab: readonly string[], rand: () => number, n: number): string[] {
  const out: string[] = [];
  const h = Math.log(vocab.length + 1);
  for (let i = 0; i < n; i++) {
    const r = Math.floor(Math.exp(rand() * h)) - 1;
    out.push(vocab[Math.min(vocab.length - 1, Math.max(0, r))]!);
  }
  return out;
}

/** All vocabulary words. */
export function vocabulary(): readonly string[] {
  return WORDS;
}

/** Writes a Markdown result file under bench/results/ and echoes it to stdout. */
export function writeResult(name: string, markdown: string): string {
  const dir = path.join(REPO, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.md`);
  writeFileSync(file, markdown.endsWith('\n') ? markdown : markdown + '\n');
  process.stdout.write(markdown + '\n');
  return file;
}

/** Formats a number with `digits` decimals. */
export function fmt(x: number, digits = 2): string {
  return Number.isFinite(x) ? x.toFixed(digits) : String(x);
}

/** A machine line for result files: Node version, CPU count, date. */
export function machineLine(): string {
  return `Node ${process.version}, ${availableParallelism()} cores, ${new Date().toISOString().slice(0, 10)}`;
}

let queryVocab: readonly string[] | undefined;

/**
 * `n` search queries of 1–8 Zipf words over the 40,000-word vocabulary, from `seed` (the same
 * queries for the same arguments): what the router, MCP and search A/B benchmarks ask.
 */
export function zipfQueries(n: number, seed: number): string[] {
  queryVocab ??= largeVocabulary(40_000);
  const vocab = queryVocab;
  const rand = rng(seed);
  return Array.from({ length: n }, () =>
    zipfFrom(vocab, rand, 1 + Math.floor(rand() * 8)).join(' '),
  );
}

/**
 * A generated library of `n` skills in `dir` (default bench/.work/router-v2-<n>; reused when
 * complete): Zipf names, descriptions, keywords and bodies over the 40,000-word vocabulary, 100
 * shard folders. The router and MCP benchmarks share the default folder; the load test generates
 * its own, which its operator edits.
 */
export function generateSkillLibrary(n: number, dir = path.join(WORK, `router-v2-${n}`)): string {
  const vocab = largeVocabulary(40_000);
  const words = (rand: () => number, k: number): string[] => zipfFrom(vocab, rand, k);
  const marker = path.join(dir, '.complete');
  if (existsSync(marker)) return dir;
  rmSync(dir, { recursive: true, force: true });
  const rand = rng(n);
  for (let i = 0; i < n; i++) {
    const name = `${words(rand, 2).join('-')}-${i.toString(36)}`;
    const description = words(rand, 12 + Math.floor(rand() * 28)).join(' ');
    const keywords = words(rand, 3 + Math.floor(rand() * 4));
    const body = Array.from({ length: 8 }, () => words(rand, 12).join(' ')).join('\n\n');
    const folder = path.join(dir, `shard-${i % 100}`, name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, 'SKILL.md'),
      `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\nkeywords: [${keywords.join(', ')}]\n---\n\n# ${name}\n\n${body}\n`,
    );
  }
  writeFileSync(marker, '');
  return dir;
}
