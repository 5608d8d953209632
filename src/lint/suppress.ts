/**
 * Suppressions and baselines (issue #24): what lets a thousand-skill library adopt lint without
 * drowning. Three ways a finding leaves the printed report, each counted in the report's summary so
 * nothing disappears silently:
 *
 * - a `lint.ignore` rule of the config file: a code and skill-id globs (src/substrate glob syntax:
 *   `*`, `?`, `{a,b}`), with an optional reason;
 * - an inline rule: a skill's own frontmatter `metadata: { skilldex-lint-ignore: "CODE, CODE" }`
 *   (the agentskills spec keeps metadata values strings);
 * - a baseline: a saved `--json` report; a finding whose fingerprint it holds is known.
 *
 * A finding about several skills (a confusable pair) is suppressed only when every skill it names
 * is covered: one author's suppression never hides the other skill's problem. Pure, except
 * `parseLintBaseline`, which only parses the text it is given.
 */
import { SkilldexError } from '../errors.js';
import { globMatches, parseGlob, type Glob } from '../substrate/index.js';
import { escapeInvisible } from '../text/index.js';
import {
  LINT_CODES,
  type LintCode,
  type LintFinding,
  type RawFinding,
  type SuppressionCount,
} from './codes.js';
import { skillFinding } from './finding.js';
import type { LintSkill } from './skill.js';

/** The frontmatter metadata key of an inline suppression. */
export const INLINE_KEY = 'skilldex-lint-ignore';

/** One suppression rule as given: a code, skill-id globs (none: every skill) and a reason. */
export interface LintSuppression {
  readonly code: string;
  readonly skills?: readonly string[];
  readonly reason?: string;
  /** Where the rule was written (a config file), for the summary. */
  readonly source: string;
}

/** A rule ready to match: config rules with parsed globs, inline rules with their skill. */
interface Rule {
  readonly kind: 'config' | 'inline';
  readonly source: string;
  readonly code: LintCode;
  readonly skills: readonly string[];
  readonly globs: readonly Glob[] | undefined;
  readonly reason?: string;
  count: number;
}

/** A saved report's fingerprints, for `--baseline`. */
export interface LintBaseline {
  readonly file: string;
  readonly fingerprints: ReadonlySet<string>;
}

/** Checks config rules (INVALID_ARGUMENT naming the rule's source for an unknown code or a bad glob). */
export function configRules(rules: readonly LintSuppression[]): Rule[] {
  return rules.map((r, i) => {
    if (!isLintCode(r.code))
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `${r.source}: lint.ignore[${i}].code ${JSON.stringify(r.code)} is not a lint code (see docs/lint.md)`,
        { source: r.source, key: `lint.ignore[${i}].code`, value: r.code },
      );
    const skills = r.skills !== undefined && r.skills.length > 0 ? r.skills : undefined;
    const globs = skills?.map((g, j) => {
      const parsed = parseGlob(g);
      if (!parsed.ok)
        throw new SkilldexError(
          'INVALID_ARGUMENT',
          `${r.source}: lint.ignore[${i}].skills[${j}] ${JSON.stringify(g)}: ${parsed.reason}`,
          { source: r.source, key: `lint.ignore[${i}].skills[${j}]`, value: g },
        );
      return parsed.glob;
    });
    return {
      kind: 'config' as const,
      source: r.source,
      code: r.code,
      skills: skills ?? ['*'],
      globs,
      ...(r.reason !== undefined ? { reason: r.reason } : {}),
      count: 0,
    };
  });
}

/**
 * The inline rules of `skill` (its metadata `skilldex-lint-ignore`: codes separated by commas or
 * spaces, or a list of codes) and a SUPPRESSION_INVALID finding for a value naming no code or an
 * unknown one.
 */
export function inlineRules(
  skill: LintSkill,
  line: number | undefined,
): { rules: Rule[]; invalid: RawFinding[] } {
  const meta = skill.frontmatter?.['metadata'];
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta))
    return { rules: [], invalid: [] };
  const value = (meta as Record<string, unknown>)[INLINE_KEY];
  if (value === undefined) return { rules: [], invalid: [] };
  const items =
    typeof value === 'string'
      ? value.split(/[\s,]+/).filter((s) => s !== '')
      : Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? (value as string[])
        : undefined;
  const bad = items === undefined ? [String(value)] : items.filter((c) => !isLintCode(c));
  const rules: Rule[] = (items ?? []).filter(isLintCode).map((code) => ({
    kind: 'inline',
    source: skill.path,
    code,
    skills: [skill.skill_id],
    globs: undefined,
    count: 0,
  }));
  const invalid: RawFinding[] =
    bad.length > 0 || items?.length === 0
      ? [
          skillFinding('SUPPRESSION_INVALID', skill, line, 'metadata', {
            message: `metadata ${INLINE_KEY} ${items === undefined ? 'must be a string of lint codes' : bad.length > 0 ? `names unknown codes ${bad.map((c) => JSON.stringify(escapeInvisible(c))).join(', ')}` : 'names no code'}: it suppresses nothing`,
            fix: `write the codes to ignore, e.g. ${INLINE_KEY}: "DESCRIPTION_WEAK, CONFUSABLE" (codes: docs/lint.md)`,
            details: { value: items ?? String(value), unknown: bad },
          }),
        ]
      : [];
  return { rules, invalid };
}

/**
 * Splits `findings` into those kept and those a rule suppresses (config rules first, then inline
 * ones), counting each rule's matches. A finding is suppressed when one rule covers every skill it
 * names (a finding naming no skill: only a config rule without skill globs).
 */
export function applySuppressions(
  findings: readonly LintFinding[],
  rules: readonly Rule[],
): { kept: LintFinding[]; suppressed: number; counts: SuppressionCount[] } {
  const kept: LintFinding[] = [];
  let suppressed = 0;
  const byCode = new Map<string, Rule[]>();
  for (const r of rules) byCode.set(r.code, [...(byCode.get(r.code) ?? []), r]);
  const inlineOf = new Map<string, Rule>();
  for (const r of rules) if (r.kind === 'inline') inlineOf.set(`${r.code}\u0000${r.skills[0]}`, r);
  for (const f of findings) {
    const candidates = byCode.get(f.code) ?? [];
    const config = candidates.find((r) => r.kind === 'config' && covers(r, f.skill_ids));
    const inline =
      config === undefined && f.skill_ids.length > 0
        ? f.skill_ids.map((id) => inlineOf.get(`${f.code}\u0000${id}`))
        : [];
    if (config !== undefined) config.count++;
    else if (inline.length > 0 && inline.every((r) => r !== undefined)) {
      for (const r of new Set(inline)) r!.count++;
    } else {
      kept.push(f);
      continue;
    }
    suppressed++;
  }
  const counts = rules.map((r) => ({
    kind: r.kind,
    source: r.source,
    code: r.code,
    skills: r.skills,
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    findings: r.count,
  }));
  return { kept, suppressed, counts };
}

// Whether a config rule covers every skill of a finding (no skills: only a rule without globs).
function covers(r: Rule, ids: readonly string[]): boolean {
  if (r.globs === undefined) return true;
  if (ids.length === 0) return false;
  return ids.every((id) => r.globs!.some((g) => globMatches(g, id)));
}

/**
 * The fingerprint of a finding: code, what it is about (the field; `pair` or `family` for
 * CONFUSABLE) and its subjects (skill ids sorted; a path relative to its scope for a file no skill
 * id names, or several files of one id). No line, score or wording: those move without the
 * finding changing.
 */
export function fingerprintOf(f: RawFinding, rel: (p: string) => string): string {
  const about =
    f.code === 'CONFUSABLE'
      ? f.details['kind'] === 'near-duplicate-family'
        ? 'family'
        : 'pair'
      : (f.field ?? '');
  const ids = [...f.skill_ids].sort().join(',');
  const byFile = f.code === 'DUPLICATE' || f.code === 'SHADOWED' || f.skill_ids.length === 0;
  const subject = byFile ? `${ids}@${rel(f.path)}` : ids;
  return `${f.code}|${about}|${subject}`;
}

/** Drops findings every fingerprint of which the baseline holds; returns how many it dropped. */
export function applyBaseline(
  findings: readonly LintFinding[],
  baseline: LintBaseline | undefined,
): { kept: LintFinding[]; known: number } {
  if (baseline === undefined) return { kept: [...findings], known: 0 };
  const kept = findings.filter((f) => !f.fingerprints.every((p) => baseline.fingerprints.has(p)));
  return { kept, known: findings.length - kept.length };
}

/**
 * The JSON value of the baseline file `file` (lint's, eval --triggers'); BASELINE_INVALID naming
 * the file and the command that saves one (`saveWith`) when the text is not JSON.
 */
export function parseBaselineJson(text: string, file: string, saveWith: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SkilldexError(
      'BASELINE_INVALID',
      `${file}: not JSON (${(err as Error).message.split('\n')[0]}); give a report saved with ${saveWith}`,
      { file },
      { cause: err },
    );
  }
}

/**
 * Reads a saved `skilldex lint --json` report as a baseline: every fingerprint of its findings.
 * BASELINE_INVALID names the file when the text is not such a report.
 */
export function parseLintBaseline(text: string, file: string): LintBaseline {
  const raw = parseBaselineJson(text, file, 'skilldex lint --json');
  const findings = (raw as { findings?: unknown } | null)?.findings;
  if (!Array.isArray(findings))
    throw new SkilldexError('BASELINE_INVALID', `${file}: no findings array: not a lint report`, {
      file,
    });
  const fingerprints = new Set<string>();
  findings.forEach((f: unknown, i) => {
    const fps = (f as { fingerprints?: unknown } | null)?.fingerprints;
    if (!Array.isArray(fps) || !fps.every((p) => typeof p === 'string'))
      throw new SkilldexError(
        'BASELINE_INVALID',
        `${file}: findings[${i}] has no fingerprints (a report from an older skilldex? save a new one with skilldex lint --json)`,
        { file, index: i },
      );
    for (const p of fps as string[]) fingerprints.add(p);
  });
  return { file, fingerprints };
}

function isLintCode(code: string): code is LintCode {
  return Object.hasOwn(LINT_CODES, code);
}
