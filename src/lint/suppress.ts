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
 * is covered: one author's suppression never hides the other skill's problem.
 *
 * Security codes (security.ts SECURITY_CODES) are suppressed only by a trusted rule: the user's own
 * config, a project config the user trusts, or the library caller (the command line). A skill's
 * inline rule or an untrusted project rule naming one is refused: it hides nothing, and each such
 * rule is reported as SUPPRESSION_REFUSED (issue 36 M4: a skill must not silence its own
 * `curl … | bash`). Pure, except `parseLintBaseline`, which only parses the text it is given.
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
import { findingAt, skillFinding } from './finding.js';
import { SECURITY_CODES } from './security.js';
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
  /**
   * False for a rule from a config file the user does not trust (a project's
   * `.skilldex/config.toml`): it may hide findings, but never a security code. Default true (the
   * user's config, the command line, a library caller).
   */
  readonly trusted?: boolean;
}

/** A rule ready to match: config rules with parsed globs, inline rules with their skill. */
interface Rule {
  readonly kind: 'config' | 'inline';
  readonly source: string;
  readonly code: LintCode;
  readonly skills: readonly string[];
  readonly globs: readonly Glob[] | undefined;
  readonly reason?: string;
  /** Whether the rule may hide security codes (only the user's config or the caller). */
  readonly trusted: boolean;
  /** Line of the rule in its source (an inline rule's metadata line), when known. */
  readonly line?: number;
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
      trusted: r.trusted !== false,
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
    // A skill never vouches for itself: its rule cannot hide a security code.
    trusted: false,
    ...(line !== undefined ? { line } : {}),
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
  allRules: readonly Rule[],
): { kept: LintFinding[]; suppressed: number; counts: SuppressionCount[] } {
  const kept: LintFinding[] = [];
  let suppressed = 0;
  const rules = allRules.filter((r) => !isRefused(r));
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
  const counts = allRules.map((r) => ({
    kind: r.kind,
    source: r.source,
    code: r.code,
    skills: r.skills,
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    findings: r.count,
    ...(isRefused(r) ? { refused: true as const } : {}),
  }));
  return { kept, suppressed, counts };
}

/** True for a rule that may not apply: an untrusted one (inline, a project's) naming a security code. */
export function isRefused(r: Pick<Rule, 'trusted' | 'code'>): boolean {
  return !r.trusted && SECURITY_CODES.includes(r.code);
}

/**
 * One SUPPRESSION_REFUSED finding per refused rule (isRefused), naming the findings of `findings`
 * it tried to hide (they stay in the report). An inline rule is located at its skill's metadata
 * line, a config rule at its file.
 */
export function refusedSuppressions(
  findings: readonly RawFinding[],
  rules: readonly Rule[],
): RawFinding[] {
  return rules.filter(isRefused).map((r) => {
    const hit = findings.filter(
      (f) =>
        f.code === r.code &&
        (r.kind === 'inline'
          ? f.skill_ids.includes(r.skills[0]!)
          : f.skill_ids.length === 0
            ? r.globs === undefined
            : covers(r, f.skill_ids)),
    );
    const who =
      r.kind === 'inline'
        ? `skill ${escapeInvisible(r.skills[0]!)} tries to suppress its own security code ${r.code} (metadata ${INLINE_KEY})`
        : `the untrusted project config tries to suppress the security code ${r.code} (lint.ignore)`;
    const place = {
      skill_ids: r.kind === 'inline' ? [r.skills[0]!] : [],
      path: r.source,
      line: r.line,
      ...(r.kind === 'inline' ? { field: 'metadata' } : {}),
    };
    return findingAt('SUPPRESSION_REFUSED', place, {
      message: `${who}: refused, ${hit.length} finding(s) kept`,
      fix:
        r.kind === 'inline'
          ? `review the ${r.code} findings; only your own config (~/.config/skilldex/config.toml [[lint.ignore]]) can suppress a security code`
          : `review the ${r.code} findings; to accept them, suppress the code in your own config or trust this project (trust_project_config)`,
      details: {
        kind: r.kind,
        code: r.code,
        skills: r.skills,
        source: r.source,
        refused_findings: hit.length,
      },
    });
  });
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
      : f.code === 'SUPPRESSION_REFUSED'
        ? `${f.field ?? ''}:${String(f.details['code'])}`
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
