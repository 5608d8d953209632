/**
 * Description checks (pure): DESCRIPTION_TRUNCATED (a host's listing cuts the text: say where, how
 * much, and which "use when" and "do not use for" clauses fall after the cut) and DESCRIPTION_WEAK
 * (too few distinct content words, or too few that are not common across the library: name the
 * words that carry no signal).
 */
import { distinctContentTokens, findClauses } from '../text/index.js';
import type { RawFinding, LintThresholds } from './codes.js';
import { skillFinding } from './finding.js';
import { HOST_RULES, cutFor, type HostCut } from './hosts.js';
import type { LintSkill, WordStats } from './skill.js';

// Characters of the cut text quoted in a message.
const QUOTE_CHARS = 80;

/**
 * DESCRIPTION_TRUNCATED when a host's listing cuts the skill's text (HOST_RULES: Claude Code at
 * `listing_chars` of description + when_to_use, Codex at `codex_chars` of the description). One
 * finding per skill; the top-level details describe the host that cuts most, `hosts` every one.
 */
export function checkTruncated(
  skill: LintSkill,
  line: number | undefined,
  t: LintThresholds,
): RawFinding | undefined {
  const cuts = HOST_RULES.map((r) => cutFor(r, r.text(skill), t)).filter((c) => c.cut !== '');
  if (cuts.length === 0) return undefined;
  const hosts = cuts.map((c) => hostDetails(c, textFor(skill, c)));
  const worst = cuts.reduce((a, b) => (b.cutLength > a.cutLength ? b : a));
  const w = hosts[cuts.indexOf(worst)]!;
  const lost = [
    ...new Set(hosts.flatMap((h) => [...h.cut_trigger_clauses, ...h.cut_negative_clauses])),
  ];
  const parts = cuts.map((c) => `${c.name} shows ${c.cap} of ${c.length}`);
  const quoted = worst.cut.length > QUOTE_CHARS ? `${worst.cut.slice(0, QUOTE_CHARS)}…` : worst.cut;
  const where = skill.when_to_use === undefined ? 'description' : 'description + when_to_use';
  return skillFinding('DESCRIPTION_TRUNCATED', skill, line, 'description', {
    message:
      `${where} is cut in the skill listing: ${parts.join('; ')}; the last ${w.cut_chars} (${w.cut_words} words) are never seen, starting ${JSON.stringify(quoted)}` +
      (lost.length > 0
        ? `; after the cut: ${lost.map((c) => JSON.stringify(c.length > QUOTE_CHARS ? `${c.slice(0, QUOTE_CHARS)}…` : c)).join(', ')}`
        : ''),
    fix: `put what routes first (what the skill does, when to use it, when not to) within ${Math.min(...cuts.map((c) => c.cap))} characters; move details to the body`,
    details: {
      host: worst.host,
      length: worst.length,
      limit: worst.cap,
      unit: worst.unit,
      cut_chars: w.cut_chars,
      cut_words: w.cut_words,
      cut_text: worst.cut,
      cut_trigger_clauses: w.cut_trigger_clauses,
      cut_negative_clauses: w.cut_negative_clauses,
      cut_trigger_words: w.cut_trigger_words,
      hosts,
    },
  });
}

// The text a host lists for `skill` (the same text cutFor was given).
function textFor(skill: LintSkill, c: HostCut): string {
  return HOST_RULES.find((r) => r.host === c.host)!.text(skill);
}

// One host's cut: how much, and the routing clauses (and trigger words) that fall after it.
function hostDetails(c: HostCut, text: string) {
  const clauses = findClauses(text).filter((cl) => cl.end > c.cutAt);
  const triggers = clauses.filter((cl) => cl.kind === 'trigger').map((cl) => cl.text);
  const negatives = clauses.filter((cl) => cl.kind === 'negative').map((cl) => cl.text);
  const before = new Set(distinctContentTokens(text.slice(0, c.cutAt)));
  const triggerWords = [
    ...new Set(
      clauses
        .filter((cl) => cl.kind === 'trigger')
        .flatMap((cl) => distinctContentTokens(text.slice(Math.max(cl.start, c.cutAt), cl.end))),
    ),
  ].filter((w) => !before.has(w));
  return {
    host: c.host,
    length: c.length,
    limit: c.cap,
    unit: c.unit,
    cut_chars: c.cutLength,
    cut_words: c.cut.split(/\s+/).filter((w) => w !== '').length,
    cut_trigger_clauses: triggers,
    cut_negative_clauses: negatives,
    cut_trigger_words: triggerWords,
  };
}

/**
 * DESCRIPTION_WEAK when the listing has fewer than `min_content_words` distinct content words, or
 * (in libraries of at least `common_min_skills`) fewer than `min_signal_words` words used by less
 * than `common_share` of the skills.
 */
export function checkWeak(
  skill: LintSkill,
  words: readonly string[],
  stats: WordStats,
  line: number | undefined,
  t: LintThresholds,
): RawFinding | undefined {
  const judgeCommon = stats.skills >= t.common_min_skills;
  const common = judgeCommon
    ? words.filter((w) => (stats.df.get(w) ?? 0) / stats.skills >= t.common_share)
    : [];
  const commonSet = new Set(common);
  const signal = words.filter((w) => !commonSet.has(w));
  const tooShort = words.length < t.min_content_words;
  const tooCommon = judgeCommon && signal.length < t.min_signal_words;
  if (!tooShort && !tooCommon) return undefined;
  const reasons: string[] = [];
  if (tooShort)
    reasons.push(
      `${words.length} distinct content word${words.length === 1 ? '' : 's'} (fewer than ${t.min_content_words})`,
    );
  if (tooCommon)
    reasons.push(
      `${signal.length} signal word${signal.length === 1 ? '' : 's'} (fewer than ${t.min_signal_words})`,
    );
  const noSignal = tooShort && !judgeCommon ? words : common;
  const named =
    noSignal.length > 0 ? `; no signal: ${noSignal.map((w) => JSON.stringify(w)).join(', ')}` : '';
  const shares = Object.fromEntries(
    common.map((w) => [w, round((stats.df.get(w) ?? 0) / stats.skills)]),
  );
  return skillFinding('DESCRIPTION_WEAK', skill, line, 'description', {
    message: `description has ${reasons.join(' and ')}${named}`,
    fix: 'say what the skill does and when to use it in the words a user would type: file types, tools, tasks',
    details: {
      content_words: words,
      signal_words: signal,
      common_words: common,
      common_share: shares,
      min_content_words: t.min_content_words,
      min_signal_words: t.min_signal_words,
    },
  });
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
