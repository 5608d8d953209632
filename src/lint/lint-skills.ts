/**
 * The lint core (pure over its inputs): runs every check over a set of skills, discovery's results,
 * an injected ranker and telemetry counts; sets each finding's fingerprint; takes out what
 * suppressions and a baseline cover; folds families and field groups (group.ts); and returns the
 * findings in a fixed order with their counts, the summary of where every finding went, and the
 * skills' cost in each host's listing. No file, catalog or clock access here: `lintLibrary`
 * (lint.ts) supplies them.
 */
import type {
  DuplicateGroup,
  NearDuplicateGroup,
  ShadowedSkill,
  SkippedFile,
} from '../skills/index.js';
import { compareStrings } from '../text/index.js';
import {
  LINT_CODES,
  SEVERITIES,
  type LintCode,
  type LintCounts,
  type LintFinding,
  type LintProfile,
  type LintSummary,
  type LintThresholds,
  type ListingReport,
  type RawFinding,
} from './codes.js';
import { checkTruncated, checkWeak } from './description.js';
import {
  checkDiscovery,
  checkHidden,
  checkInstructionLike,
  checkNeverFetched,
  checkSpec,
} from './file-checks.js';
import { groupFindings, type SkillFamily } from './group.js';
import { listingCosts } from './hosts.js';
import { frontmatterLines } from './lines.js';
import {
  checkConfusable,
  checkUnreachable,
  runSelfQueries,
  skillFamilies,
  type RankFn,
} from './ranking.js';
import { listingWords, wordStats, type LintSkill } from './skill.js';
import { checkSpecProfile } from './spec-profile.js';
import {
  applyBaseline,
  applySuppressions,
  configRules,
  fingerprintOf,
  inlineRules,
  refusedSuppressions,
  type LintBaseline,
  type LintSuppression,
} from './suppress.js';

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
  readonly extra?: readonly RawFinding[];
  readonly onProgress?: (done: number, total: number) => void;
  /** The text of a file discovery named that is not a linted skill (a shadowed file, a copy), for its lines. */
  readonly textOf?: (path: string) => string | undefined;
  /** Which rules the spec checks follow (default `lenient`: what hosts load). */
  readonly profile?: LintProfile;
  /** Config suppression rules (`lint.ignore`); inline ones come from each skill's metadata. */
  readonly suppressions?: readonly LintSuppression[];
  /** A saved report: findings it already holds are left out and counted. */
  readonly baseline?: LintBaseline;
  /** A path as fingerprints spell it (relative to its scope, so a baseline moves with the library). */
  readonly relPath?: (path: string) => string;
  /** Report only these codes (lint --only); the others are dropped before anything is counted. */
  readonly codes?: ReadonlySet<string>;
}

/** What `lintSkills` returns: the printed findings, their counts, the summary and the listing costs. */
export interface LintResult {
  readonly findings: LintFinding[];
  readonly counts: LintCounts;
  readonly summary: LintSummary;
  readonly listing: ListingReport;
}

/** The findings of every check, suppressed, baselined, grouped and sorted, with their counts. */
export function lintSkills(input: LintInput, t: LintThresholds): LintResult {
  const skills = [...input.skills].sort(
    (a, b) => compareStrings(a.skill_id, b.skill_id) || compareStrings(a.path, b.path),
  );
  const lineMaps = new Map<LintSkill, ReadonlyMap<string, number>>();
  const lines = (s: LintSkill, field: string): number | undefined => {
    let m = lineMaps.get(s);
    if (!m) lineMaps.set(s, (m = frontmatterLines(s.text)));
    return m.get(field);
  };
  const words = skills.map((s) => listingWords(s));
  const families = skillFamilies(skills, words, t);
  const all = rawFindings(input, skills, words, families, lines, t);
  const codes = input.codes;
  const raw = codes === undefined ? all : all.filter((f) => codes.has(f.code));
  const inline = skills.map((s) => inlineRules(s, lines(s, 'metadata')));
  raw.push(...inline.flatMap((r) => r.invalid));
  const rules = [...configRules(input.suppressions ?? []), ...inline.flatMap((r) => r.rules)];
  // A skill or an untrusted project naming a security code is refused, and says so.
  if (codes === undefined || codes.has('SUPPRESSION_REFUSED'))
    raw.push(...refusedSuppressions(raw, rules));
  const rel = input.relPath ?? ((p: string) => p);
  const printed: LintFinding[] = raw.map((f) => ({ ...f, fingerprints: [fingerprintOf(f, rel)] }));
  const sup = applySuppressions(printed, rules);
  const base = applyBaseline(sup.kept, input.baseline);
  const famOf = new Map<string, SkillFamily>();
  for (const [i, fam] of families.byIndex) famOf.set(skills[i]!.skill_id, fam);
  const grouped = groupFindings(base.kept, (id) => famOf.get(id), t);
  const findings = grouped.findings.sort(compareFindings);
  return {
    findings,
    counts: countFindings(findings),
    summary: {
      raw: raw.length,
      suppressed: { total: sup.suppressed, rules: sup.counts },
      baseline:
        input.baseline !== undefined ? { file: input.baseline.file, known: base.known } : null,
      grouped: { groups: grouped.groups, folded: grouped.folded },
    },
    listing: listingCosts(skills, t),
  };
}

// Every check's findings, before fingerprints, suppressions, the baseline and grouping.
function rawFindings(
  input: LintInput,
  skills: readonly LintSkill[],
  words: readonly (readonly string[])[],
  families: ReturnType<typeof skillFamilies>,
  lines: (s: LintSkill, field: string) => number | undefined,
  t: LintThresholds,
): RawFinding[] {
  const profile = input.profile ?? 'lenient';
  const stats = wordStats(
    words,
    skills.map((s) => s.name),
  );
  const findings: RawFinding[] = [...(input.extra ?? [])];
  skills.forEach((s, i) => {
    const truncated = checkTruncated(s, lines(s, 'description'), t);
    if (truncated) findings.push(truncated);
    const weak = checkWeak(s, words[i]!, stats, lines(s, 'description'), t);
    if (weak) findings.push(weak);
    findings.push(
      ...checkSpec(s, lines, profile),
      ...(profile === 'spec' ? checkSpecProfile(s, lines) : []),
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
  return findings.concat(
    checkUnreachable(skills, outcomes, lines, t),
    checkConfusable(skills, outcomes, families, lines, t),
  );
}

/** Severity (worst first), code (table order), first skill id, path, line, message. */
export function compareFindings(a: RawFinding, b: RawFinding): number {
  return (
    SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
    CODE_ORDER.indexOf(a.code) - CODE_ORDER.indexOf(b.code) ||
    compareStrings(a.skill_ids.join('\n'), b.skill_ids.join('\n')) ||
    compareStrings(a.path, b.path) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    compareStrings(a.message, b.message)
  );
}

const CODE_ORDER = Object.keys(LINT_CODES) as LintCode[];

/** Counts by severity and by code (codes in table order, absent when zero). */
export function countFindings(findings: readonly LintFinding[]): LintCounts {
  const n = new Map<string, number>();
  for (const f of findings) {
    n.set(f.code, (n.get(f.code) ?? 0) + 1);
    n.set(f.severity, (n.get(f.severity) ?? 0) + 1);
  }
  const by: Partial<Record<LintCode, number>> = {};
  for (const code of CODE_ORDER) if (n.has(code)) by[code] = n.get(code)!;
  return {
    error: n.get('error') ?? 0,
    warning: n.get('warning') ?? 0,
    note: n.get('note') ?? 0,
    by_code: by,
  };
}
