/**
 * Grouping (pure; issue #24 "a lint you can live with at a thousand skills"): a templated family
 * of hundreds of skills makes the same finding hundreds of times. Findings that say one thing about
 * one family become one finding that names the family's size and a few members and keeps every
 * folded finding in its details and fingerprints, so nothing is lost and `--baseline` still sees
 * each one:
 *
 * - CONFUSABLE: a family's near-duplicate members and the self-queries its members lose to each
 *   other are one finding; the self-queries one outside skill loses to members of a family are one
 *   finding per (skill, family).
 * - Any other finding about one skill of a family (DESCRIPTION_WEAK, NAME_INVALID, …): one finding
 *   per (code, field, family), naming the members that have it.
 * - UNKNOWN_FIELD and SPEC_FIELD outside families: one finding per field across the library;
 *   NAME_INVALID and NAME_FOLDER_MISMATCH: one per way the name breaks the rule (title-cased
 *   names, snake_case names, a folder that is the name's slug).
 *
 * A group of one finding is printed as that finding. Never drops a finding.
 */
import type { LintFinding, LintThresholds } from './codes.js';

/** A near-duplicate family of three or more skills, as the grouping and messages read it. */
export interface SkillFamily {
  /** The family's first skill id (its name in messages). */
  readonly id: string;
  readonly members: readonly string[];
  readonly paths: readonly string[];
  /** Content words every member's listing text holds. */
  readonly shared_words: readonly string[];
  /** Verified near-duplicate links that joined the family, and their lowest and highest Jaccard. */
  readonly links: number;
  readonly min_jaccard: number;
  readonly max_jaccard: number;
}

// Codes grouped across the whole library when their skills are in no family: by field, and by the
// way a name breaks the rules (details.pattern, set by file-checks.ts namePattern).
const FIELD_GROUPED: ReadonlySet<string> = new Set([
  'UNKNOWN_FIELD',
  'SPEC_FIELD',
  'NAME_INVALID',
  'NAME_FOLDER_MISMATCH',
]);
// Members named in a group's message (all are in its details).
const NAMED = 8;
// Folded lost self-queries quoted in a family finding's details.
const LOST_KEPT = 20;

/** The findings with every group of two or more folded into one; `folded` counts what went in. */
export function groupFindings(
  findings: readonly LintFinding[],
  familyOf: (skillId: string) => SkillFamily | undefined,
  t: LintThresholds,
): { findings: LintFinding[]; groups: number; folded: number } {
  const groups = new Map<string, LintFinding[]>();
  const out: LintFinding[] = [];
  for (const f of findings) {
    const key = groupKey(f, familyOf);
    if (key === undefined) {
      out.push(f);
      continue;
    }
    const list = groups.get(key);
    if (list) list.push(f);
    else groups.set(key, [f]);
  }
  let count = 0;
  let folded = 0;
  for (const [key, list] of groups) {
    if (list.length === 1) {
      out.push(list[0]!);
      continue;
    }
    count++;
    folded += list.length;
    out.push(mergeGroup(key, list, familyOf, t));
  }
  return { findings: out, groups: count, folded };
}

// The group a finding belongs to, or undefined for one printed alone.
function groupKey(
  f: LintFinding,
  familyOf: (skillId: string) => SkillFamily | undefined,
): string | undefined {
  if (f.code === 'CONFUSABLE') {
    if (f.details['kind'] === 'near-duplicate-family') {
      const fam = familyOf(f.skill_ids[0]!);
      return fam ? `family\u0000${fam.id}` : undefined;
    }
    if (f.skill_ids.length !== 2) return undefined;
    const [a, b] = f.skill_ids as [string, string];
    const fa = familyOf(a);
    const fb = familyOf(b);
    if (fa !== undefined && fa === fb) return `family\u0000${fa.id}`;
    if (fa !== undefined && fb === undefined) return `outsider\u0000${b}\u0000${fa.id}`;
    if (fb !== undefined && fa === undefined) return `outsider\u0000${a}\u0000${fb.id}`;
    return undefined;
  }
  if (f.skill_ids.length !== 1) return undefined;
  const fam = familyOf(f.skill_ids[0]!);
  if (fam !== undefined) return `code\u0000${f.code}\u0000${f.field ?? ''}\u0000${fam.id}`;
  if (FIELD_GROUPED.has(f.code))
    return `field\u0000${f.code}\u0000${f.field ?? ''}\u0000${String(f.details['pattern'] ?? '')}`;
  return undefined;
}

function mergeGroup(
  key: string,
  list: readonly LintFinding[],
  familyOf: (skillId: string) => SkillFamily | undefined,
  t: LintThresholds,
): LintFinding {
  const [kind, a, b] = key.split('\u0000') as [string, string, string];
  if (kind === 'family') return mergeFamily(list, familyOf(list[0]!.skill_ids[0]!)!, t);
  // The family's id is its first member, so familyOf finds it by that id.
  if (kind === 'outsider') return mergeOutsider(a, familyOf(b)!, list);
  return mergeCode(list, kind === 'code' ? familyOf(list[0]!.skill_ids[0]!) : undefined);
}

// A family's CONFUSABLE finding: its near-duplicate members and the self-queries lost inside it.
function mergeFamily(
  list: readonly LintFinding[],
  fam: SkillFamily,
  t: LintThresholds,
): LintFinding {
  const members = list.filter((f) => f.details['kind'] === 'near-duplicate-family');
  const pairs = list.filter((f) => f.details['kind'] !== 'near-duplicate-family');
  const ids = sortedIds(list);
  const lost = pairs.flatMap(
    (f) => (f.details['lost_queries'] as readonly LostLike[] | undefined) ?? [],
  );
  const first = members[0] ?? pairs[0]!;
  const inside =
    lost.length > 0
      ? `${lost.length} self-quer${lost.length === 1 ? 'y' : 'ies'} lost inside the family (e.g. ${describeLost(lost[0]!)})`
      : '';
  const message =
    members.length > 0
      ? `${members.length} skills have near-duplicate descriptions (word Jaccard ${fam.min_jaccard}-${fam.max_jaccard} ≥ ${t.near_duplicate_jaccard} over ${fam.links} links): ${named(members.map((f) => f.skill_ids[0]!))}` +
        (fam.shared_words.length > 0
          ? `; all share ${fam.shared_words.map((w) => JSON.stringify(w)).join(', ')}`
          : '') +
        (inside !== '' ? `; ${inside}` : '')
      : `near-duplicate family of ${fam.id} (${fam.members.length} skills): ${inside}`;
  return {
    ...locate(first),
    code: 'CONFUSABLE',
    severity: first.severity,
    skill_ids: ids,
    field: 'description',
    message,
    fix: 'give each description the words only it has (what it works on, when to pick it over its siblings); the shared template routes nowhere',
    details: {
      kind: 'near-duplicate-family',
      family: fam.id,
      family_size: fam.members.length,
      members: members.map((f) => f.skill_ids[0]!),
      paths: members.map((f) => f.path),
      shared_words: fam.shared_words,
      links: fam.links,
      min_jaccard: fam.min_jaccard,
      max_jaccard: fam.max_jaccard,
      lost_inside: lost.length,
      lost_queries: lost.slice(0, LOST_KEPT),
    },
    fingerprints: fingerprintsOf(list),
  };
}

// The self-queries one skill outside a family loses to the family's members.
function mergeOutsider(
  outsider: string,
  fam: SkillFamily,
  list: readonly LintFinding[],
): LintFinding {
  const lost = list.flatMap(
    (f) => (f.details['lost_queries'] as readonly LostLike[] | undefined) ?? [],
  );
  const takers = [
    ...new Set(list.flatMap((f) => f.skill_ids).filter((id) => id !== outsider)),
  ].sort();
  const own = list.find((f) => f.skill_ids[0] === outsider);
  const path = own?.path ?? (list[0]!.details['other_path'] as string | undefined) ?? list[0]!.path;
  return {
    ...(own ? locate(own) : { path }),
    path,
    code: 'CONFUSABLE',
    severity: list[0]!.severity,
    skill_ids: [outsider, ...takers],
    field: 'description',
    message: `${outsider} and ${takers.length} skills of the near-duplicate family of ${fam.id} (${fam.members.length} skills) are confusable: ${lost.length} self-quer${lost.length === 1 ? 'y' : 'ies'} lost, to ${named(takers)} (e.g. ${lost[0] ? describeLost(lost[0]) : 'near-duplicate descriptions'})`,
    fix: `say in ${outsider}'s description what it does that the family's template does not`,
    details: {
      kind: 'family-outsider',
      outsider,
      family: fam.id,
      family_size: fam.members.length,
      members: takers,
      lost_queries: lost,
    },
    fingerprints: fingerprintsOf(list),
  };
}

// One code about several skills of a family, or one field across the library.
function mergeCode(list: readonly LintFinding[], fam: SkillFamily | undefined): LintFinding {
  const first = list[0]!;
  const ids = list.map((f) => f.skill_ids[0]!);
  const pattern = first.details['pattern'];
  const where =
    fam !== undefined
      ? `${list.length} of the ${fam.members.length} skills of the near-duplicate family of ${fam.id}`
      : `${list.length} skills${typeof pattern === 'string' ? ` (${pattern})` : ''}`;
  return {
    ...locate(first),
    code: first.code,
    severity: first.severity,
    skill_ids: ids,
    ...(first.field !== undefined ? { field: first.field } : {}),
    message: `${where} have this finding: ${named(ids)}. ${first.skill_ids[0]}: ${first.message}`,
    ...(first.fix !== undefined ? { fix: first.fix } : {}),
    details: {
      group: fam !== undefined ? 'family' : 'field',
      ...(fam !== undefined ? { family: fam.id, family_size: fam.members.length } : {}),
      ...(first.field !== undefined ? { field: first.field } : {}),
      ...(typeof pattern === 'string' ? { pattern } : {}),
      members: ids,
      findings: list.map((f) => ({
        skill_id: f.skill_ids[0],
        path: f.path,
        ...(f.line !== undefined ? { line: f.line } : {}),
        message: f.message,
        details: f.details,
      })),
    },
    fingerprints: fingerprintsOf(list),
  };
}

interface LostLike {
  readonly from: string;
  readonly query: string;
  readonly winner: string;
}

function describeLost(q: LostLike): string {
  return `${q.from}'s query ${JSON.stringify(q.query)} ranks ${q.winner} first`;
}

function locate(f: LintFinding): { path: string; line?: number } {
  return { path: f.path, ...(f.line !== undefined ? { line: f.line } : {}) };
}

function named(ids: readonly string[]): string {
  return ids.length > NAMED
    ? `${ids.slice(0, NAMED).join(', ')} and ${ids.length - NAMED} more`
    : ids.join(', ');
}

function sortedIds(list: readonly LintFinding[]): string[] {
  return [...new Set(list.flatMap((f) => f.skill_ids))].sort();
}

function fingerprintsOf(list: readonly LintFinding[]): string[] {
  return [...new Set(list.flatMap((f) => f.fingerprints))].sort();
}
