/**
 * `evalTriggers` (issue #24: `skilldex eval --triggers`): discovers the skills of the given scopes
 * and the trigger cases beside them (discover.ts), routes every request against the whole library
 * through the public Router — a temporary catalog of those skills under the default policy (built
 * under the OS temp folder, removed afterwards), or the catalog given, read only, with its learned
 * usage examples — and returns the report: per-skill numbers, confusions with the words that
 * carried them, totals, stealing pairs, gate failures, suggestions. Never writes a SKILL.md, an eval
 * file or a given catalog; never records telemetry.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SkilldexError, assertKnownOptions, type Problem } from '../errors.js';
import {
  CatalogReader,
  isPgLocation,
  normalizeExampleQuery,
  openUsageForWrite,
  readUsage,
  telemetryPathFor,
  trimAuthorExamples,
} from '../catalog/index.js';
import { readTextCapped } from '../fsx/index.js';
import { frontmatterLines } from '../lint/index.js';
import { Router, indexCatalog } from '../router/index.js';
import { DISCOVER_OPTION_KEYS, discoverOptionsOf, discoverSkills } from '../skills/index.js';
import type { DiscoverOptions, SkillRecord } from '../skills/index.js';
import { findTriggerCases, type TriggerCase } from './discover.js';
import {
  learnedQueries,
  splitMethodOf,
  splitPartOf,
  type SplitMode,
  type TriggerSplit,
} from './split.js';
import { checkGates, type GateFailure, type TriggerBaseline, type TriggerGates } from './gates.js';
import {
  scoreCases,
  skillResults,
  stealingPairs,
  totalsOf,
  type CaseOutcome,
  type SkillTriggerResult,
  type StealingPair,
  type TriggerRankFn,
  type TriggerTotals,
} from './score.js';
import { suggestFor, type TriggerSuggestion } from './suggest.js';
import { carryingWords } from './words.js';

/** Options of `evalTriggers`: the scopes (as for discovery), where to rank, gates and extras. */
export interface TriggerEvalOptions extends DiscoverOptions {
  /** An existing catalog to rank against (read only). Default: a temporary one, default policy. */
  readonly catalog?: string;
  /** Rank with the catalog's learned usage examples (default true; a temporary catalog has none). */
  readonly usage?: boolean;
  /** Case files beyond those found beside the skills (any trigger-eval format; cases name skills). */
  readonly files?: readonly string[];
  /** A positive passes within the first `recall_at` candidates: 1 (default) or 3. */
  readonly recall_at?: 1 | 3;
  readonly gates?: TriggerGates;
  /** A saved report (parseTriggerBaseline): regressions against it are gate failures. */
  readonly baseline?: TriggerBaseline;
  /** Add `suggestions` for every skill with a miss or a false trigger. */
  readonly suggest?: boolean;
  /** Confidence floor a negative's skill must not clear (used when candidates carry `confidence`). */
  readonly floor?: number;
  /** Folder for the temporary catalog (default: the OS temp folder). */
  readonly tmpDir?: string;
  readonly onProgress?: (stage: 'index' | 'rank', done: number, total: number) => void;
  /**
   * How the cases are split so no learned request is graded (split.ts, issue 34 item 3): `auto`
   * (default), `holdout` or `none`.
   */
  readonly split?: SplitMode;
}

/** One skill's numbers with where its description is (for SARIF and editors). */
export type SkillTriggerReport = SkillTriggerResult & {
  readonly path: string;
  readonly line?: number;
};

/** The `eval --triggers` report (docs/triggers.md "JSON report"). Keys in this order. */
export interface TriggerReport {
  /** Skills in the library the requests were routed against. */
  readonly skills: number;
  readonly catalog: string | null;
  readonly policy: string | null;
  readonly recall_at: number;
  /** Whether candidates carried a confidence, and the floor false triggers were judged by. */
  readonly confidence: { readonly available: boolean; readonly floor: number | null };
  /** How the cases were split; only the validation part's requests the ranking did not learn are graded. */
  readonly split: TriggerSplit;
  readonly files: readonly {
    readonly path: string;
    readonly cases: number;
    readonly skipped: number;
  }[];
  readonly problems: readonly Problem[];
  readonly totals: TriggerTotals;
  readonly per_skill: readonly SkillTriggerReport[];
  readonly stealing: readonly StealingPair[];
  readonly gates: TriggerGates & { readonly failures: readonly GateFailure[] };
  readonly baseline: { readonly file: string } | null;
  readonly suggestions?: readonly TriggerSuggestion[];
  readonly cases: readonly CaseOutcome[];
}

const OPTION_KEYS = [
  ...DISCOVER_OPTION_KEYS,
  'catalog',
  'usage',
  'files',
  'recall_at',
  'gates',
  'baseline',
  'suggest',
  'floor',
  'tmpDir',
  'onProgress',
  'split',
];

/** Routes every trigger case of the library; see the module header. Unknown option keys are refused. */
export function evalTriggers(options: TriggerEvalOptions = {}): TriggerReport {
  assertKnownOptions(options, OPTION_KEYS, 'evalTriggers');
  const recallAt = options.recall_at ?? 1;
  if (recallAt !== 1 && recallAt !== 3)
    throw new SkilldexError('INVALID_ARGUMENT', `evalTriggers: recall_at must be 1 or 3`, {
      option: 'recall_at',
      value: recallAt,
    });
  const scan = discoverSkills(discoverOptionsOf(options));
  const found = findTriggerCases(
    scan.skills,
    scan.scopes.filter((s) => s.exists).map((s) => s.path),
    options.project,
    options.files ?? [],
  );
  const split = options.split ?? 'auto';
  if (!['auto', 'holdout', 'none'].includes(split))
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `evalTriggers: split must be auto, holdout or none, got ${JSON.stringify(split)}`,
      { option: 'split', value: split },
    );
  return withRanker(options, scan.skills.length, found.cases, (rank, policy, confident, cut) => {
    const outcomes = scoreCases(cut.graded, rank, recallAt, options.floor, (d, n) =>
      options.onProgress?.('rank', d, n),
    );
    const results = skillResults(outcomes);
    const totals = totalsOf(outcomes, results);
    const gates = options.gates ?? {};
    const byId = new Map(scan.skills.map((s) => [s.skill_id, s]));
    return {
      skills: scan.skills.length,
      catalog: options.catalog ?? null,
      policy: policy(),
      recall_at: recallAt,
      confidence: { available: confident(), floor: options.floor ?? null },
      split: cut.split,
      files: found.files,
      problems: found.problems,
      totals,
      per_skill: results.map((r) => located(r, byId.get(r.skill_id))),
      stealing: stealingPairs(results),
      gates: { ...gates, failures: checkGates(gates, totals, results, options.baseline) },
      baseline: options.baseline !== undefined ? { file: options.baseline.file } : null,
      ...(options.suggest === true ? { suggestions: suggestFor(results, outcomes, byId) } : {}),
      cases: outcomes,
    };
  });
}

// Builds (or opens) the catalog, hands a ranker to `fn`, and cleans up whatever happens.
function withRanker<T>(
  options: TriggerEvalOptions,
  skills: number,
  cases: readonly TriggerCase[],
  fn: (
    rank: TriggerRankFn,
    policy: () => string | null,
    confident: () => boolean,
    cut: GradedCases,
  ) => T,
): T {
  const temp =
    options.catalog === undefined
      ? mkdtempSync(path.join(options.tmpDir ?? tmpdir(), 'skilldex-triggers-'))
      : undefined;
  try {
    const catalog = options.catalog ?? path.join(temp!, 'catalog.sqlite');
    if (options.catalog !== undefined && !isPgLocation(catalog) && !existsSync(catalog))
      throw new SkilldexError('CATALOG_MISSING', `no catalog at ${catalog}`, { catalog });
    if (temp !== undefined && skills > 0)
      indexCatalog({
        ...discoverOptionsOf(options),
        catalog,
        publish: true,
        onProgress: (d: number, n: number) => options.onProgress?.('index', d, n),
      });
    if (temp !== undefined && skills === 0)
      return fn(
        () => ({ candidates: [], abstain: true }),
        () => null,
        () => false,
        splitCases(options, cases, catalog, temp !== undefined, null),
      );
    const cut = splitCases(options, cases, catalog, temp !== undefined, publishedPolicyOf(catalog));
    const router = new Router({ catalog, telemetry: false, usage: options.usage !== false });
    try {
      let policy: string | null = null;
      let confident = false;
      const rank: TriggerRankFn = (query, limit) => {
        try {
          const r = router.search({ query, limit }, limit);
          policy = r.policy;
          // confidence and abstain come with the calibrated ranking policy (issue #22); until a
          // policy gives them, only the first rank decides.
          const abstain = (r as { abstain?: unknown }).abstain === true;
          return {
            abstain,
            candidates: r.candidates.map((c) => {
              const confidence = (c as { confidence?: unknown }).confidence;
              if (typeof confidence === 'number') confident = true;
              return {
                skill_id: c.skill_id,
                score: c.score,
                ...(typeof confidence === 'number' ? { confidence } : {}),
                words: carryingWords(c.explanation),
              };
            }),
          };
        } catch (err) {
          // A request with nothing to search for ranks nothing: the router says nothing.
          if (err instanceof SkilldexError && err.code === 'INVALID_QUERY')
            return { candidates: [], abstain: true };
          throw err;
        }
      };
      return fn(
        rank,
        () => policy ?? cut.policy,
        () => confident,
        cut,
      );
    } finally {
      router.close();
    }
  } finally {
    if (temp !== undefined) rmSync(temp, { recursive: true, force: true });
  }
}

/** The cases to grade and how they were split. */
interface GradedCases {
  readonly graded: readonly TriggerCase[];
  readonly split: TriggerSplit;
  readonly policy: string | null;
}

// The policy the catalog's published generation ranks with (null when it publishes none).
function publishedPolicyOf(catalog: string): string | null {
  const reader = new CatalogReader(catalog);
  try {
    return reader.read((g) => g.policy);
  } catch {
    return null;
  } finally {
    reader.close();
  }
}

// Splits the cases (split.ts): in a temporary catalog the router keeps only the train part's author
// examples; the validation part is graded, less the requests the ranking reads as examples.
function splitCases(
  options: TriggerEvalOptions,
  cases: readonly TriggerCase[],
  catalog: string,
  temp: boolean,
  policy: string | null,
): GradedCases {
  const usage = options.usage !== false;
  const { method, reason } = splitMethodOf(options.split ?? 'auto', policy, usage);
  const validation =
    method === 'none' ? [...cases] : cases.filter((c) => splitPartOf(c.query) === 'validation');
  const held = new Set(validation.map((c) => normalizeExampleQuery(c.query)));
  const file = telemetryPathFor(catalog);
  if (temp && method !== 'none' && existsSync(file)) {
    const db = openUsageForWrite(file);
    try {
      trimAuthorExamples(db, (q) => !held.has(q));
    } finally {
      db.close();
    }
  }
  const learned = usage ? learnedQueries(readUsage(file).examples, policy) : new Set<string>();
  const graded = validation.filter((c) => !learned.has(normalizeExampleQuery(c.query)));
  return {
    graded,
    policy,
    split: {
      method,
      reason,
      train: cases.length - validation.length,
      validation: graded.length,
      learned: validation.length - graded.length,
    },
  };
}

// A skill's numbers with the path and `description:` line of its SKILL.md.
function located(r: SkillTriggerResult, s: SkillRecord | undefined): SkillTriggerReport {
  if (s === undefined) return { ...r, path: '' };
  const file = readTextCapped(s.real_path, { maxBytes: Math.max(s.size, 1) + 1, label: s.path });
  const line = file.ok ? frontmatterLines(file.text).get('description') : undefined;
  return { ...r, path: s.path, ...(line !== undefined ? { line } : {}) };
}
