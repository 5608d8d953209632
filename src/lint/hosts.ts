/**
 * What each host's skill listing shows of a skill, and what that costs (pure). The listing is the
 * only text an agent picks skills from, so a cap that cuts a "use when" or "do not use for" clause
 * changes routing. Each host counts in its own unit, so a CJK description is measured as the host
 * measures it, never as JavaScript string length by default:
 *
 * - Claude Code shows `description` and `when_to_use` together, cut at `skillListingMaxDescChars`
 *   (1,536) characters, and keeps the whole listing within `skillListingBudgetFraction` (1 %) of
 *   the context window counted in characters (code.claude.com/docs/en/settings). Claude Code is a
 *   JavaScript program: a character here is a UTF-16 code unit (a CJK ideograph counts 1, an emoji
 *   or a supplementary-plane ideograph 2).
 * - Codex shows `description` only, at most 1,024 Unicode code points (1,021 and "...") per entry
 *   (openai/codex codex-rs/core-skills/src/model_visible.rs), one line `- name: description (file:
 *   path)` per skill, and keeps the section within 2 % of the context window in approximate tokens,
 *   UTF-8 bytes / 4 rounded up (codex-rs/core-skills/src/render.rs): a CJK character (3 bytes)
 *   costs three times a Latin letter.
 *
 * Never reads a file; the skills and thresholds come in.
 */
import type { HostId, HostListingTotal, LintThresholds, SkillListingCost } from './codes.js';
import type { LintSkill } from './skill.js';

/** How one host lists a skill. */
interface HostRule {
  readonly host: HostId;
  readonly name: string;
  readonly capUnit: HostListingTotal['cap_unit'];
  readonly budgetUnit: HostListingTotal['budget_unit'];
  /** The text the host lists for a skill (before its cap). */
  readonly text: (s: Pick<LintSkill, 'description' | 'when_to_use'>) => string;
  readonly cap: (t: LintThresholds) => number;
  readonly budget: (t: LintThresholds) => number;
  /** What the entry costs against the budget, with `shown` as the text the host shows. */
  readonly cost: (s: Pick<LintSkill, 'name' | 'path'>, shown: string) => number;
  /** Appended to a cut text (Codex: "..."), counted within the cap. */
  readonly ellipsis: string;
}

const encoder = new TextEncoder();

/** The hosts, in report order. */
export const HOST_RULES: readonly HostRule[] = [
  {
    host: 'claude-code',
    name: 'Claude Code',
    capUnit: 'utf16',
    budgetUnit: 'characters',
    text: (s) =>
      s.when_to_use === undefined ? s.description : `${s.description}\n${s.when_to_use}`,
    cap: (t) => t.listing_chars,
    budget: (t) => t.claude_code_budget_chars,
    // The name and the shown text; the separators are the same few characters for every skill.
    cost: (s, shown) => s.name.length + shown.length,
    ellipsis: '',
  },
  {
    host: 'codex',
    name: 'Codex',
    capUnit: 'code-points',
    budgetUnit: 'tokens',
    text: (s) => s.description,
    cap: (t) => t.codex_chars,
    budget: (t) => t.codex_budget_tokens,
    // render.rs line_cost: approx_token_count of "- name: description (file: path)\n". The path is
    // estimated as Codex's aliased form "r0/<folder>/SKILL.md".
    cost: (s, shown) =>
      Math.ceil(
        encoder.encode(`- ${s.name}: ${shown} (file: r0/${folderOf(s.path)}/SKILL.md)\n`).length /
          4,
      ),
    ellipsis: '...',
  },
];

/** What a host shows of a text: its length in the host's unit, the shown part, and the cut part. */
export interface HostCut {
  readonly host: HostId;
  readonly name: string;
  readonly unit: HostListingTotal['cap_unit'];
  readonly length: number;
  readonly cap: number;
  /** The text as listed (cut, with the host's ellipsis), and the part no agent sees. */
  readonly shown: string;
  readonly cut: string;
  /** Offset of the cut in the original text (JavaScript string index). */
  readonly cutAt: number;
  /** Length of the cut part in the host's unit (0 when nothing is cut). */
  readonly cutLength: number;
}

/** What `rule` makes of `text`: the whole text when it fits, else the cut at the cap. */
export function cutFor(rule: HostRule, text: string, t: LintThresholds): HostCut {
  const cap = rule.cap(t);
  const length = lengthIn(text, rule.capUnit);
  const base = { host: rule.host, name: rule.name, unit: rule.capUnit, length, cap };
  if (length <= cap) return { ...base, shown: text, cut: '', cutAt: text.length, cutLength: 0 };
  const keep = cap - lengthIn(rule.ellipsis, rule.capUnit);
  const cutAt = indexAfter(text, keep, rule.capUnit);
  return {
    ...base,
    shown: text.slice(0, cutAt) + rule.ellipsis,
    cut: text.slice(cutAt),
    cutAt,
    cutLength: length - keep,
  };
}

/** Each skill's cost per host and the totals against each host's budget. */
export function listingCosts(
  skills: readonly LintSkill[],
  t: LintThresholds,
): { hosts: HostListingTotal[]; skills: SkillListingCost[] } {
  const totals = HOST_RULES.map((r) => ({ rule: r, total: 0, cut: 0 }));
  const out: SkillListingCost[] = skills.map((s) => {
    const hosts = {} as Record<HostId, { length: number; shown: number; cost: number }>;
    for (const tot of totals) {
      const c = cutFor(tot.rule, tot.rule.text(s), t);
      const cost = tot.rule.cost(s, c.shown);
      tot.total += cost;
      if (c.cut !== '') tot.cut++;
      hosts[tot.rule.host] = { length: c.length, shown: lengthIn(c.shown, c.unit), cost };
    }
    return { skill_id: s.skill_id, hosts };
  });
  return {
    hosts: totals.map(({ rule, total, cut }) => ({
      host: rule.host,
      cap_unit: rule.capUnit,
      cap: rule.cap(t),
      budget_unit: rule.budgetUnit,
      budget: rule.budget(t),
      total,
      cut,
    })),
    skills: out,
  };
}

/** Length of `text` in `unit`. */
export function lengthIn(text: string, unit: HostListingTotal['cap_unit']): number {
  if (unit === 'utf16') return text.length;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

// The string index after the first `count` units of `text`.
function indexAfter(text: string, count: number, unit: HostListingTotal['cap_unit']): number {
  if (unit === 'utf16') return Math.max(0, count);
  let i = 0;
  let n = 0;
  for (const ch of text) {
    if (n === count) break;
    i += ch.length;
    n++;
  }
  return i;
}

function folderOf(p: string): string {
  const parts = p.split(/[\\/]/);
  return parts.at(-2) ?? '';
}
