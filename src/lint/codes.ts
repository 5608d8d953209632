/**
 * The lint codes (issues #14, #24): one table of every finding code with its default severity and
 * the rule it checks, plus the report types. Pure data: docs/lint.md, the SARIF rules and the text
 * renderer read this same table.
 */

/** How bad a finding is. SARIF calls these levels `error`, `warning` and `note`. */
export type LintSeverity = 'error' | 'warning' | 'note';

/** Severities from worst to mildest (the order findings are listed in). */
export const SEVERITIES: readonly LintSeverity[] = ['error', 'warning', 'note'];

/** Every lint code, its severity and its rule in one line. */
export const LINT_CODES = {
  SKIPPED: {
    severity: 'error',
    rule: 'discovery skipped the SKILL.md (bad frontmatter, missing name or description, unreadable): it never routes',
  },
  UNREACHABLE: {
    severity: 'error',
    rule: "no self-query, not even the skill's own name, brings it into the top 3",
  },
  HIDDEN_TEXT: {
    severity: 'error',
    rule: 'a routed field carries invisible or bidi-control characters',
  },
  INSTRUCTION_LIKE: {
    severity: 'error',
    rule: 'the description or when_to_use reads like instructions to the agent',
  },
  CONFUSABLE: {
    severity: 'warning',
    rule: "another skill ranks first for this skill's self-queries, or the two descriptions are near-duplicates",
  },
  DESCRIPTION_TRUNCATED: {
    severity: 'warning',
    rule: "a host's skill listing cuts the text: Claude Code shows 1,536 characters of description + when_to_use, Codex 1,024 of the description",
  },
  DESCRIPTION_WEAK: {
    severity: 'warning',
    rule: 'too few distinct content words, or too few that are not common across the library',
  },
  SHADOWED: {
    severity: 'warning',
    rule: 'another scope defines the same skill id and wins: this file is never served',
  },
  CATALOG_STALE: {
    severity: 'warning',
    rule: "the catalog ranked against does not serve this file's current revision (missing, older or deprecated): ranking checks skipped for it",
  },
  NEVER_FETCHED: {
    severity: 'warning',
    rule: 'suggested at least N times in telemetry and never fetched',
  },
  NAME_INVALID: {
    severity: 'warning',
    rule: 'spec: name is not 1-64 chars of [a-z0-9-] without leading, trailing or double hyphens',
  },
  NAME_FOLDER_MISMATCH: { severity: 'warning', rule: 'spec: name differs from its folder name' },
  DESCRIPTION_TOO_LONG: {
    severity: 'warning',
    rule: 'spec profile: description is over 1,024 characters',
  },
  FIELD_TYPE: { severity: 'warning', rule: 'spec: a known field has the wrong type' },
  CONFUSABLE_CHARACTERS: {
    severity: 'warning',
    rule: 'spec: Latin text mixed with look-alike Cyrillic or Greek letters',
  },
  FRONTMATTER_LENIENT: {
    severity: 'warning',
    rule: 'the frontmatter is not strict YAML (an unquoted value holding ": ", a repeated key); skilldex reads it leniently, but Claude Code and other strict hosts list the skill without its description, so it never routes there',
  },
  SUPPRESSION_INVALID: {
    severity: 'warning',
    rule: 'an inline suppression (metadata skilldex-lint-ignore) names no lint code, or one that does not exist',
  },
  SUPPRESSION_REFUSED: {
    severity: 'warning',
    rule: "security: a skill's inline suppression or an untrusted project config tries to suppress a security code; refused, the findings stay",
  },
  NAME_FROM_FOLDER: {
    severity: 'warning',
    rule: 'spec profile: the frontmatter has no name (hosts name the skill after its folder; the spec requires one)',
  },
  SPEC_FIELD: {
    severity: 'warning',
    rule: 'spec profile: a frontmatter field outside the six the agentskills spec defines',
  },
  COMPATIBILITY_TOO_LONG: {
    severity: 'warning',
    rule: 'spec profile: compatibility is empty or over 500 characters',
  },
  UNKNOWN_FIELD: {
    severity: 'note',
    rule: 'a frontmatter field outside the spec and the extensions hosts read: no host uses it',
  },
  DUPLICATE: {
    severity: 'note',
    rule: 'a byte-identical copy (or a copy differing only by BOM or line endings) of another SKILL.md',
  },
  // The security group (security.ts; HIDDEN_TEXT and INSTRUCTION_LIKE above belong to it too).
  REMOTE_CODE_PIPE: {
    severity: 'warning',
    rule: 'security: a download is piped into a shell or interpreter (curl … | sh, iwr … | iex); an error from http, a raw IP or a paste site',
  },
  CREDENTIAL_EXFIL: {
    severity: 'error',
    rule: 'security: credential stores (~/.ssh, ~/.aws, .env, browser profiles, keychains) are read in a skill that also sends data or names URLs',
  },
  ENCODED_EXEC: {
    severity: 'error',
    rule: 'security: decoded content is executed (base64 -d | sh, eval(atob(…)), powershell -EncodedCommand)',
  },
  EXECUTABLE_DOWNLOAD: {
    severity: 'warning',
    rule: 'security: a program or installer is downloaded (.exe, .msi, .dmg, …), or a download is made executable',
  },
  ENCODED_BLOB: {
    severity: 'warning',
    rule: 'security: a long base64 or hex blob in the body or a script hides what it holds',
  },
  SUSPICIOUS_URL: {
    severity: 'warning',
    rule: 'security: a URL on a paste site, file drop, request bin or tunnel, or a public raw IP address (or the cloud metadata address)',
  },
  WIDE_ALLOWED_TOOLS: {
    severity: 'warning',
    rule: 'security: allowed-tools lets any shell command run without a prompt (Bash, Bash(*), *) in a skill not from ~/.claude/skills',
  },
  SCAN_INCOMPLETE: {
    severity: 'warning',
    rule: "security: a file of the skill was not fully scanned (over 512 KiB: only its first 512 KiB; past the 4 MiB per-skill budget; a link leading outside the skill's scope; unreadable)",
  },
  HOOK_COMMAND: {
    severity: 'warning',
    rule: "security: the skill's frontmatter hooks or its plugin's hooks run shell commands on host events",
  },
} as const satisfies Record<string, { severity: LintSeverity; rule: string }>;

/** A lint code. */
export type LintCode = keyof typeof LINT_CODES;

/** One finding: a code, its severity, the skill(s) and file it is about, and how to fix it. */
export interface LintFinding {
  readonly code: LintCode;
  readonly severity: LintSeverity;
  /** The skills concerned (one, or the pair of a CONFUSABLE finding; empty for an unparsed file). */
  readonly skill_ids: readonly string[];
  /** Absolute path of the SKILL.md the finding is located in. */
  readonly path: string;
  /** 1-based line in that file (the frontmatter line of the field concerned), when known. */
  readonly line?: number;
  /** The frontmatter field concerned, when one is. */
  readonly field?: string;
  readonly message: string;
  /** What the author can do about it. */
  readonly fix?: string;
  /** Machine-readable evidence (queries, scores, words, thresholds); shape per code in docs/lint.md. */
  readonly details: Readonly<Record<string, unknown>>;
  /**
   * Stable identities of what the finding reports, independent of lines, scores and wording: one
   * for a single finding, one per folded finding for a family or field group. `--baseline` compares
   * these (docs/lint.md "Baselines").
   */
  readonly fingerprints: readonly string[];
}

/** A finding as a check makes it, before its fingerprint is set (lint-skills.ts sets them all). */
export type RawFinding = Omit<LintFinding, 'fingerprints'>;

/** Which rules the spec checks follow: what hosts load (default) or the agentskills spec strictly. */
export type LintProfile = 'lenient' | 'spec';

/** The profiles, the default first. */
export const PROFILES: readonly LintProfile[] = ['lenient', 'spec'];

/** Finding counts by severity and by code (codes in table order). */
export interface LintCounts {
  readonly error: number;
  readonly warning: number;
  readonly note: number;
  readonly by_code: Readonly<Partial<Record<LintCode, number>>>;
}

/** Which checks ran, and why a check did not. */
export interface LintChecks {
  /** Self-query checks (CONFUSABLE by ranking, UNREACHABLE) ran against a catalog. */
  readonly ranking: boolean;
  /** Discovery results (SKIPPED, SHADOWED, DUPLICATE) were available. */
  readonly discovery: boolean;
  /** The catalog's telemetry file existed, so NEVER_FETCHED was checked. */
  readonly telemetry: boolean;
}

/** What one suppression rule (config `lint.ignore` or an inline metadata key) took out. */
export interface SuppressionCount {
  /** `config` for a `lint.ignore` rule, `inline` for a skill's own `metadata.skilldex-lint-ignore`. */
  readonly kind: 'config' | 'inline';
  /** The config file, or the SKILL.md for an inline rule. */
  readonly source: string;
  readonly code: LintCode;
  /** The skill globs of a config rule (`["*"]` when it names none); the skill id for an inline one. */
  readonly skills: readonly string[];
  readonly reason?: string;
  /** Findings it took out (0: the rule matched nothing this run). */
  readonly findings: number;
  /**
   * Present (true) when the rule was refused: an inline or untrusted project rule naming a security
   * code. It took nothing out; a SUPPRESSION_REFUSED finding reports it.
   */
  readonly refused?: true;
}

/** Where every finding went: printed, folded into a group, suppressed or known from the baseline. */
export interface LintSummary {
  /** Findings the checks made, before suppressions, the baseline and grouping. */
  readonly raw: number;
  /** Findings taken out by suppressions, per rule (rules that matched nothing included). */
  readonly suppressed: {
    readonly total: number;
    readonly rules: readonly SuppressionCount[];
  };
  /** Findings taken out because the baseline report already had them (null: no baseline given). */
  readonly baseline: { readonly file: string; readonly known: number } | null;
  /** Findings folded into family or field groups: `groups` printed findings stand for `folded`. */
  readonly grouped: { readonly groups: number; readonly folded: number };
}

/** The lint report: what was linted, with which thresholds, and the findings in a fixed order. */
export interface LintReport {
  readonly skills: number;
  /** The profile the spec checks followed. */
  readonly profile: LintProfile;
  /** The catalog ranked against (null when a temporary one was built and removed). */
  readonly catalog: string | null;
  /** The ranking policy of that catalog (null when ranking did not run). */
  readonly policy: string | null;
  readonly checks: LintChecks;
  readonly thresholds: LintThresholds;
  /** Counts of the printed findings (after suppressions, the baseline and grouping). */
  readonly counts: LintCounts;
  readonly summary: LintSummary;
  /** What the skills cost in each host's skill listing (src/lint/hosts.ts). */
  readonly listing: ListingReport;
  readonly findings: readonly LintFinding[];
}

/** A host's skill listing: its per-entry cap and the library's total against its budget. */
export interface HostListingTotal {
  readonly host: HostId;
  /** What the per-entry cap counts: UTF-16 code units (JavaScript) or Unicode code points. */
  readonly cap_unit: 'utf16' | 'code-points';
  readonly cap: number;
  /** What the budget counts: characters (Claude Code) or approximate tokens, bytes / 4 (Codex). */
  readonly budget_unit: 'characters' | 'tokens';
  readonly budget: number;
  /** The whole listing's cost in `budget_unit`. */
  readonly total: number;
  /** Skills whose text the per-entry cap cuts. */
  readonly cut: number;
}

/** One skill's cost in each host's listing. */
export interface SkillListingCost {
  readonly skill_id: string;
  readonly hosts: Readonly<
    Record<HostId, { readonly length: number; readonly shown: number; readonly cost: number }>
  >;
}

/** The listing part of the report: totals per host, then each skill's cost (skill id order). */
export interface ListingReport {
  readonly hosts: readonly HostListingTotal[];
  readonly skills: readonly SkillListingCost[];
}

/** The hosts whose skill listings lint measures. */
export type HostId = 'claude-code' | 'codex';

/** The documented thresholds (docs/lint.md); every one can be overridden in the options. */
export interface LintThresholds {
  /** Characters of description + when_to_use Claude Code shows in its listing. */
  readonly listing_chars: number;
  /** Fewer distinct content words than this is weak. */
  readonly min_content_words: number;
  /** Fewer signal words (content words not common in the library) than this is weak. */
  readonly min_signal_words: number;
  /** A word in at least this share of the library's skills carries no signal. */
  readonly common_share: number;
  /** Common words are judged only in libraries of at least this many skills. */
  readonly common_min_skills: number;
  /** Rarest content words per rare-word self-query. */
  readonly query_words: number;
  /** Rank a skill must reach with at least one self-query to be reachable. */
  readonly reach_rank: number;
  /** Token Jaccard of two descriptions' content words at or above which they are near-duplicates. */
  readonly near_duplicate_jaccard: number;
  /** Descriptions with fewer distinct content words than this are not compared for near-duplicates. */
  readonly near_duplicate_min_words: number;
  /** Suggestions without a single fetch from which NEVER_FETCHED is reported. */
  readonly never_fetched_suggestions: number;
  /** Code points of the description Codex shows in its skill listing. */
  readonly codex_chars: number;
  /** Characters of the whole listing Claude Code keeps before it drops descriptions. */
  readonly claude_code_budget_chars: number;
  /** Approximate tokens (UTF-8 bytes / 4) of the whole listing Codex keeps before it cuts descriptions. */
  readonly codex_budget_tokens: number;
}

/** Default thresholds, each with where the number comes from. */
export const DEFAULT_THRESHOLDS: LintThresholds = Object.freeze({
  // Claude Code cuts description + when_to_use at 1,536 characters in its skill listing
  // (settings `skillListingMaxDescChars`, default 1536: code.claude.com/docs/en/settings).
  listing_chars: 1536,
  // Five distinct content words is about one short clause ("extract tables from pdf files"): less
  // cannot say both what a skill does and when to use it.
  min_content_words: 5,
  // Three words that few other skills use are enough for a rare-word query to find the skill.
  min_signal_words: 3,
  // A word in a fifth of the library splits it no better than a coin flip over five skills.
  common_share: 0.2,
  // Below 20 skills every shared word would be "in a fifth of the library".
  common_min_skills: 20,
  // Three words: the length of a typical short agent request after stop-words.
  query_words: 3,
  // An agent reads the first few candidates; the issue sets the bar at the top 3.
  reach_rank: 3,
  // 0.8: four words in five shared, a description reused with a word or two changed.
  near_duplicate_jaccard: 0.8,
  // Tiny descriptions share most of their words by chance; DESCRIPTION_WEAK covers them.
  near_duplicate_min_words: 5,
  // 20 suggestions: enough that "never fetched" is unlikely to be chance at a 10 % fetch rate (0.9^20 ≈ 12 %).
  never_fetched_suggestions: 20,
  // Codex renders at most 1,024 code points of a description (1,021 and "..."):
  // openai/codex codex-rs/core-skills/src/model_visible.rs, MAX_MODEL_VISIBLE_SKILL_DESCRIPTION_CHARS.
  codex_chars: 1024,
  // Claude Code reserves skillListingBudgetFraction (0.01) of the context window, counted in
  // characters at 4 per token: 0.01 × 200,000 × 4 = 8,000 on a 200k-token window
  // (code.claude.com/docs/en/settings, skillListingBudgetFraction).
  claude_code_budget_chars: 8000,
  // Codex keeps the skills section within 2 % of the context window in approximate tokens (UTF-8
  // bytes / 4): openai/codex codex-rs/core-skills/src/render.rs, SKILL_METADATA_CONTEXT_WINDOW_PERCENT.
  // 2 % of a 272,000-token input window (the GPT-5 Codex models) is 5,440.
  codex_budget_tokens: 5440,
});

/** Whether `severity` is at or above `threshold` (`never` matches nothing). */
export function atOrAbove(severity: LintSeverity, threshold: LintSeverity | 'never'): boolean {
  if (threshold === 'never') return false;
  return SEVERITIES.indexOf(severity) <= SEVERITIES.indexOf(threshold);
}
