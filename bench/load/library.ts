/**
 * The load test's skill library (issue #16) and the operator's edits to it: a generated library
 * (bench/lib.ts `generateSkillLibrary`) in a folder the harness owns, then, before each publish,
 * some descriptions rewritten around a marker word no other skill has, new skills added or old ones
 * removed. The markers let the final check ask for exactly the skills each publish changed.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generateSkillLibrary, largeVocabulary, rng, zipfFrom } from '../lib.js';

/** One skill the operator changed, and the word only it carries now. */
export interface MarkedSkill {
  readonly skill_id: string;
  readonly marker: string;
}

/** What one edit of the library did. */
export interface LibraryEdit {
  readonly edited: readonly MarkedSkill[];
  readonly added: readonly MarkedSkill[];
  readonly removed: readonly string[];
}

/** Generates `n` skills into `dir` (emptied first) and returns `dir`. */
export function makeLibrary(dir: string, n: number): string {
  rmSync(dir, { recursive: true, force: true });
  return generateSkillLibrary(n, dir);
}

/** Every SKILL.md under `dir`, in a fixed order (shard folders, then skill folders, by name). */
export function skillFiles(dir: string): string[] {
  const out: string[] = [];
  for (const shard of readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()) {
    for (const skill of readdirSync(path.join(dir, shard)).sort()) {
      out.push(path.join(dir, shard, skill, 'SKILL.md'));
    }
  }
  return out;
}

// A word of letters only (a–z, base 26) for a number, so the tokenizer keeps it whole.
function letters(n: number): string {
  let s = '';
  do {
    s = String.fromCharCode(97 + (n % 26)) + s;
    n = Math.floor(n / 26);
  } while (n > 0);
  return s;
}

const MARKER_PREFIX = 'qzvx';

/** The marker word of change `j` of publish `p`: pseudo-words the vocabulary never produces. */
export function markerWord(p: number, j: number): string {
  return `${MARKER_PREFIX}${letters(p)}q${letters(j)}`;
}

function nameOf(file: string): string {
  const m = /^name: (.+)$/m.exec(readFileSync(file, 'utf8'));
  if (!m) throw new Error(`${file} has no name line`);
  return m[1]!.trim();
}

/**
 * Edits the library for publish `p` (1, 2, …): rewrites the description of `edit` skills (every
 * k-th file from an offset of `p`, so two publishes touch different skills) to lead with a marker
 * word, adds `add` new skills and removes `remove` skills (taken from the end of the list, never
 * one this or an earlier publish changed or added). Every rewritten file grows, so size-and-mtime change detection sees it.
 */
export function editLibrary(
  dir: string,
  p: number,
  counts: { edit: number; add: number; remove: number },
): LibraryEdit {
  const files = skillFiles(dir);
  const step = Math.max(1, Math.floor(files.length / Math.max(1, counts.edit * 4)));
  const edited: MarkedSkill[] = [];
  const touched = new Set<string>();
  for (let j = 0; j < counts.edit; j++) {
    const file = files[(p + j * step * 2) % files.length]!;
    if (touched.has(file)) continue;
    touched.add(file);
    const marker = markerWord(p, j);
    const text = readFileSync(file, 'utf8').replace(
      /^description: "(.*)"$/m,
      (_, d: string) => `description: "${marker} ${d} revised for publish ${p}"`,
    );
    writeFileSync(file, text);
    edited.push({ skill_id: nameOf(file), marker });
  }
  const added: MarkedSkill[] = [];
  const rand = rng(1000 + p);
  const vocab = largeVocabulary(40_000);
  for (let j = 0; j < counts.add; j++) {
    const marker = markerWord(p, counts.edit + j);
    const name = `load-added-${letters(p)}-${letters(j)}`;
    const folder = path.join(dir, `shard-added-${p}`, name);
    mkdirSync(folder, { recursive: true });
    const description = `${marker} ${zipfFrom(vocab, rand, 16).join(' ')}`;
    writeFileSync(
      path.join(folder, 'SKILL.md'),
      `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\nkeywords: [${zipfFrom(vocab, rand, 3).join(', ')}]\n---\n\n# ${name}\n\n${zipfFrom(vocab, rand, 40).join(' ')}\n`,
    );
    added.push({ skill_id: name, marker });
  }
  const removed: string[] = [];
  for (let k = files.length - 1; k >= 0 && removed.length < counts.remove; k--) {
    const file = files[k]!;
    // Earlier publishes' changes stay: the final check asks for them.
    if (touched.has(file) || readFileSync(file, 'utf8').includes(MARKER_PREFIX)) continue;
    removed.push(nameOf(file));
    rmSync(path.dirname(file), { recursive: true, force: true });
  }
  return { edited, added, removed };
}

/** `n` realistic queries: 1–8 Zipf-distributed words over the library's vocabulary. */
export function makeQueries(n: number, seed: number): string[] {
  const vocab = largeVocabulary(40_000);
  const rand = rng(seed);
  return Array.from({ length: n }, () =>
    zipfFrom(vocab, rand, 1 + Math.floor(rand() * 8)).join(' '),
  );
}
