/**
 * Description checks (pure): DESCRIPTION_TRUNCATED (the listing cuts the text: say what is cut) and
 * DESCRIPTION_WEAK (too few distinct content words, or too few that are not common across the
 * library: name the words that carry no signal).
 */
import { LINT_CODES, type LintFinding, type LintThresholds } from './codes.js';
import { listingText, type LintSkill, type WordStats } from './skill.js';

// Characters of the cut text quoted in a message.
const QUOTE_CHARS = 80;

/** DESCRIPTION_TRUNCATED when description + when_to_use exceed the listing's character limit. */
export function checkTruncated(
  skill: LintSkill,
  line: number | undefined,
  t: LintThresholds,
): LintFinding | undefined {
  const text = listingText(skill);
  const length = [...text].length;
  if (length <= t.listing_chars) return undefined;
  const cut = [...text].slice(t.listing_chars).join('');
  const cutWords = cut.split(/\s+/).filter((w) => w !== '').length;
  const quoted = cut.length > QUOTE_CHARS ? `${cut.slice(0, QUOTE_CHARS)}…` : cut;
  const where = skill.when_to_use === undefined ? 'description' : 'description + when_to_use';
  return {
    code: 'DESCRIPTION_TRUNCATED',
    severity: LINT_CODES.DESCRIPTION_TRUNCATED.severity,
    skill_ids: [skill.skill_id],
    path: skill.path,
    ...(line !== undefined ? { line } : {}),
    field: 'description',
    message: `${where} is ${length} characters; the skill listing shows ${t.listing_chars}, so the last ${length - t.listing_chars} (${cutWords} words) are cut, starting ${JSON.stringify(quoted)}`,
    fix: `move what routes (what the skill does, when to use it) into the first ${t.listing_chars} characters; put details in the body`,
    details: {
      length,
      limit: t.listing_chars,
      cut_chars: length - t.listing_chars,
      cut_words: cutWords,
      cut_text: cut,
    },
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
): LintFinding | undefined {
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
  return {
    code: 'DESCRIPTION_WEAK',
    severity: LINT_CODES.DESCRIPTION_WEAK.severity,
    skill_ids: [skill.skill_id],
    path: skill.path,
    ...(line !== undefined ? { line } : {}),
    field: 'description',
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
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
