/**
 * The lint core (pure over its inputs): runs every check over a set of skills, discovery's results,
 * an injected ranker and telemetry counts, and returns the findings in a fixed order with their
 * counts. No file, catalog or clock access here: `lintLibrary` (lint.ts) supplies them.
 */
import type {
  DuplicateGroup,
  NearDuplicateGroup,
  ShadowedSkill,
  SkippedFile,
} from '../skills/index.js';
import {
  LINT_CODES,
  SEVERITIES,
  type LintCode,
  type LintCounts,
  type LintFinding,
  type LintThresholds,
} from './codes.js';
import { checkTruncated, checkWeak } from './description.js';
import {
  checkDiscovery,
  checkHidden,
  checkInstructionLike,
  checkNeverFetched,
  checkSpec,
} from './file-checks.js';
import { frontmatterLines } from './lines.js';
import { checkConfusable, checkUnreachable, runSelfQueries, type RankFn } from './ranking.js';
import { listingWords, wordStats, type LintSkill } from './skill.js';

/** Everything the checks read. */
export interface LintInput {
  readonly skills: readonly LintSkill[];
  /** Discovery's results; absent when the skills did not come from discovery. */
  readonly scan?: {
    readonly skipped: readonly SkippedFile[];
    readonly shadowed: readonly ShadowedSkill[];
    readonly duplicates: readonly DuplicateGroup[];
    readonly near_duplicates: readonly NearDuplicateGroup[];
  };
  /** The ranker; absent means no ranking checks (CONFUSABLE by near-duplicates still runs). */
  readonly rank?: RankFn;
  /** Telemetry counts per skill; absent when the catalog has no telemetry file. */
  readonly history?: (skillId: string) => { suggestions: number; fetches: number };
  /** Extra findings made by the caller (e.g. a stale catalog), merged and sorted with the rest. */
  readonly extra?: readonly LintFinding[];
  readonly onProgress?: (done: number, total: number) => void;
  /** The text of a file discovery named that is not a linted skill (a shadowed file, a copy), for its lines. */
  readonly textOf?: (path: string) => string | undefined;
}

/** The findings of every check, sorted, and their counts. */
export function lintSkills(
  input: LintInput,
  t: LintThresholds,
): { findings: LintFinding[]; counts: LintCounts } {
  const skills = [...input.skills].sort(
    (a, b) => cmp(a.skill_id, b.skill_id) || cmp(a.path, b.path),
  );
  const lineMaps = new Map<LintSkill, ReadonlyMap<string, number>>();
  const lines = (s: LintSkill, field: string): number | undefined => {
    let m = lineMaps.get(s);
    if (!m) lineMaps.set(s, (m = frontmatterLines(s.text)));
    return m.get(field);
  };
  const words = skills.map((s) => listingWords(s));
  const stats = wordStats(words);
  const findings: LintFinding[] = [...(input.extra ?? [])];
  skills.forEach((s, i) => {
    const truncated = checkTruncated(s, lines(s, 'description'), t);
    if (truncated) findings.push(truncated);
    const weak = checkWeak(s, words[i]!, stats, lines(s, 'description'), t);
    if (weak) findings.push(weak);
    findings.push(
      ...checkSpec(s, lines),
      ...checkHidden(s, lines),
      ...checkInstructionLike(s, lines),
    );
    if (input.history) {
      const never = checkNeverFetched(s, input.history(s.skill_id), lines, t);
      if (never) findings.push(never);
    }
  });
  if (input.scan) {
    const byPath = new Map(skills.map((s) => [s.path, s.skill_id]));
    const textOf = input.textOf;
    const lineOfFile = textOf
      ? (p: string, field: string): number | undefined => {
          const text = textOf(p);
          return text === undefined ? undefined : frontmatterLines(text).get(field);
        }
      : undefined;
    findings.push(...checkDiscovery(input.scan, (p) => byPath.get(p), lineOfFile));
  }
  const outcomes = input.rank
    ? runSelfQueries(skills, words, stats, input.rank, t, input.onProgress)
    : new Map();
  // Concatenated, not spread: a large library can have more findings than a call takes arguments.
  const all = findings.concat(
    checkUnreachable(skills, outcomes, lines, t),
    checkConfusable(skills, words, outcomes, lines, t),
  );
  all.sort(compareFindings);
  return { findings: all, counts: countFindings(all) };
}

/** Severity (worst first), code (table order), first skill id, path, line, message. */
export function compareFindings(a: LintFinding, b: LintFinding): number {
  return (
    SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
    CODE_ORDER.indexOf(a.code) - CODE_ORDER.indexOf(b.code) ||
    cmp(a.skill_ids.join('\n'), b.skill_ids.join('\n')) ||
    cmp(a.path, b.path) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    cmp(a.message, b.message)
  );
}

const CODE_ORDER = Object.keys(LINT_CODES) as LintCode[];

/** Counts by severity and by code (codes in table order, absent when zero). */
export function countFindings(findings: readonly LintFinding[]): LintCounts {
  const by: Partial<Record<LintCode, number>> = {};
  for (const code of CODE_ORDER) {
    const n = findings.filter((f) => f.code === code).length;
    if (n > 0) by[code] = n;
  }
  const sev = (s: string): number => findings.filter((f) => f.severity === s).length;
  return { error: sev('error'), warning: sev('warning'), note: sev('note'), by_code: by };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
