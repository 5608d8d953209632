/**
 * The enrichment report (issue #7): one plain object that `--json` prints and every Markdown
 * renderer takes. `buildEnrichReport` scores an inventory against a brief and selects or refuses.
 * Pure: paths are shown through the given display, so the report holds no machine-specific path
 * except `roots`. Descriptions stay data: they are copied as they are, never interpreted.
 */
import type { PluginFilter, SkillRecord } from '../skills/index.js';
import { compareStrings } from '../text/index.js';
import type { PathDisplay } from './display.js';
import type { EnrichScopeName, Inventory } from './inventory.js';
import { briefTerms, scoreDescription, type DescriptionScore } from './score.js';
import { selectCandidates } from './select.js';

/** Why a run refused: the seed's reason word. */
export const REFUSAL_REASON = 'fewer-than-5-above-floor';

/** Artifact file names. */
export const ARTIFACTS = Object.freeze({
  index: 'INDEX.md',
  candidates: 'CANDIDATES.md',
  skipped: 'SKIPPED.md',
  inventory: 'raw-inventory.txt',
  refusal: 'REFUSAL.md',
});

/** One scored skill: a candidate, or (in a refusal) one of the closest misses. */
export interface EnrichCandidate {
  /** 1-based position among every scored skill. */
  readonly rank: number;
  readonly skill_id: string;
  readonly name: string;
  /** Display path of the SKILL.md (`~/…`, `<project>/…`). */
  readonly path: string;
  readonly scope: EnrichScopeName;
  readonly plugin?: string;
  readonly revision_id: string;
  readonly score: number;
  /** Brief terms found in the scored description window, ascending. */
  readonly matched_terms: readonly string[];
  /** Distinct content terms in the scored window (the denominator). */
  readonly description_terms: number;
  /** The frontmatter description exactly as parsed (renderers escape invisible characters). */
  readonly description: string;
  readonly description_chars: number;
  readonly truncated: boolean;
  /** Flag codes: INSTRUCTION_LIKE, CONFUSABLE_CHARACTERS. */
  readonly flags: readonly string[];
  /** Display paths of byte-identical copies that were not scored separately. */
  readonly copies: readonly string[];
  /** One line saying why it scored what it did. */
  readonly rationale: string;
}

/** A file enumerated but not scored, or a path the walk refused, with its coded reason. */
export interface EnrichSkipped {
  readonly path: string;
  readonly code: string;
  readonly reason: string;
  readonly line?: number;
}

/** A refusal in the seed's form. */
export interface EnrichRefusal {
  readonly reason: typeof REFUSAL_REASON;
  /** `REFUSED  skill-enrichment  <target>/INDEX.md  fewer-than-5-above-floor`. */
  readonly line: string;
  readonly closest_5: readonly EnrichCandidate[];
}

/** One scope read. */
export interface EnrichScopeEntry {
  readonly scope: EnrichScopeName;
  readonly path: string;
  readonly exists: boolean;
  readonly plugin?: string;
}

/** A scope-level note (plugin registry, settings, install paths). */
export interface EnrichNote {
  readonly code: string;
  readonly path: string;
  readonly message: string;
}

/** The whole result of one enrichment run. */
export interface EnrichReport {
  readonly outcome: 'selected' | 'refused';
  readonly task_brief: string;
  /** Distinct content terms of the brief, in first-seen order. */
  readonly brief_terms: readonly string[];
  readonly floor: number;
  /** Display path of the target folder. */
  readonly target: string;
  /** The absolute home and project folders the display labels stand for. */
  readonly roots: { readonly home: string; readonly project: string };
  readonly scopes: readonly EnrichScopeEntry[];
  readonly plugin_filter: PluginFilter;
  /** One sentence on how plugin folders were chosen. */
  readonly plugin_note: string;
  readonly enumerated_count: number;
  readonly scored_count: number;
  /** Scores strictly above the floor. */
  readonly found_count: number;
  /** Selected candidates in rank order; empty on a refusal. */
  readonly candidates: readonly EnrichCandidate[];
  readonly refusal: EnrichRefusal | null;
  readonly skipped: readonly EnrichSkipped[];
  /** Every enumerated SKILL.md, display form, enumeration order. */
  readonly inventory: readonly string[];
  readonly notes: readonly EnrichNote[];
  /** The artifact files this outcome writes. */
  readonly artifacts: readonly string[];
}

/** What `buildEnrichReport` needs besides the inventory (`floor`, `target`, `roots`: as reported). */
export interface ReportInputs extends Pick<EnrichReport, 'floor' | 'target' | 'roots'> {
  /** The task brief (the report's `task_brief`). */
  readonly brief: string;
  readonly display: PathDisplay;
}

/** Scores the inventory's records against the brief, selects or refuses, and builds the report. */
export function buildEnrichReport(inv: Inventory, inputs: ReportInputs): EnrichReport {
  const { display } = inputs;
  const terms = briefTerms(inputs.brief);
  const termSet = new Set(terms);
  // Score every record into a light entry; the full candidate (display path, rationale, copies)
  // is built only for the few the report shows.
  const scored: ScoredRecord[] = inv.records.map((record) => {
    const s = scoreDescription(termSet, record.description);
    return { record, detail: s, score: s.score, skill_id: record.skill_id, path: record.path };
  });
  const sel = selectCandidates(scored, inputs.floor);
  const rankOf = new Map(sel.ranked.map((c, i) => [c, i + 1]));
  const full = (c: ScoredRecord): EnrichCandidate =>
    toCandidate(c, rankOf.get(c) ?? 0, inv, display);
  const refused = sel.outcome === 'refused';
  const skipped = inv.skipped
    .map((s) => ({
      path: display.path(s.path),
      code: s.code,
      reason: display.text(s.reason),
      ...(s.line !== undefined ? { line: s.line } : {}),
    }))
    .sort(
      (a, b) =>
        compareStrings(a.path, b.path) ||
        compareStrings(a.code, b.code) ||
        compareStrings(a.reason, b.reason),
    );
  return {
    outcome: sel.outcome,
    task_brief: inputs.brief,
    brief_terms: terms,
    floor: inputs.floor,
    target: inputs.target,
    roots: inputs.roots,
    scopes: inv.scopes.map((s) => ({
      scope: s.scope,
      path: display.path(s.path),
      exists: s.exists,
      ...(s.plugin !== undefined ? { plugin: s.plugin } : {}),
    })),
    plugin_filter: inv.plugin_filter,
    plugin_note: pluginNote(inv),
    enumerated_count: inv.enumerated.length,
    scored_count: scored.length,
    found_count: sel.found_count,
    candidates: sel.candidates.map(full),
    refusal: refused
      ? {
          reason: REFUSAL_REASON,
          line: refusalLine(inputs.target),
          closest_5: sel.closest.map(full),
        }
      : null,
    skipped,
    inventory: inv.enumerated.map((p) => display.path(p)),
    notes: inv.problems.map((p) => ({
      code: p.code,
      path: display.path(p.path),
      message: display.text(p.message),
    })),
    artifacts: refused
      ? [ARTIFACTS.refusal, ARTIFACTS.skipped, ARTIFACTS.inventory]
      : [ARTIFACTS.index, ARTIFACTS.candidates, ARTIFACTS.skipped, ARTIFACTS.inventory],
  };
}

/** The first line of REFUSAL.md for the target folder shown as `target` (two spaces between fields). */
export function refusalLine(target: string): string {
  return ['REFUSED', 'skill-enrichment', `${target}/${ARTIFACTS.index}`, REFUSAL_REASON].join('  ');
}

/** One line saying why a skill scored what it did. */
export function rationaleOf(
  matched: readonly string[],
  descriptionTerms: number,
  flags: readonly string[],
): string {
  const base =
    matched.length === 0
      ? `no brief term among its ${descriptionTerms} description terms`
      : `${matched.length} of its ${descriptionTerms} description terms ${matched.length === 1 ? 'matches' : 'match'} the brief (${matched.join(', ')})`;
  const notes = flags.map((f) => FLAG_NOTES[f] ?? f.toLowerCase());
  return notes.length === 0 ? base : `${base}; flagged: ${notes.join(', ')}`;
}

const FLAG_NOTES: Readonly<Record<string, string>> = {
  INSTRUCTION_LIKE: 'description reads like instructions (quoted as data, not followed)',
  CONFUSABLE_CHARACTERS: 'look-alike letters from another script',
};

interface ScoredRecord {
  readonly record: SkillRecord;
  readonly detail: DescriptionScore;
  readonly score: number;
  readonly skill_id: string;
  readonly path: string;
}

function toCandidate(
  c: ScoredRecord,
  rank: number,
  inv: Inventory,
  display: PathDisplay,
): EnrichCandidate {
  const { record: r, detail: s } = c;
  const flags = r.flags.filter((f) => f !== 'HIDDEN_CHARACTERS');
  return {
    rank,
    skill_id: r.skill_id,
    name: r.name,
    path: display.path(r.path),
    scope: scopeOf(r, inv),
    ...(r.plugin !== undefined ? { plugin: r.plugin } : {}),
    revision_id: r.revision_id,
    score: s.score,
    matched_terms: s.matched_terms,
    description_terms: s.description_terms,
    description: r.description,
    description_chars: s.description_chars,
    truncated: s.truncated,
    flags,
    copies: (inv.copies.get(r.path) ?? []).map((p) => display.path(p)),
    rationale: rationaleOf(s.matched_terms, s.description_terms, flags),
  };
}

function scopeOf(r: SkillRecord, inv: Inventory): EnrichScopeName {
  return inv.scopes.find((s) => s.path === r.scope_path)?.scope ?? 'in-tree';
}

function pluginNote(inv: Inventory): string {
  if (inv.plugin_filter === 'enabled-list') {
    return 'Plugin skills were read only for enabled plugins: listed in ~/.claude/plugins/installed_plugins.json and not disabled in ~/.claude/settings.json.';
  }
  if (inv.registry_unreadable) {
    return 'No enabled-list filter was applied: ~/.claude/plugins/installed_plugins.json could not be read, so every plugin folder under ~/.claude/plugins/ was enumerated.';
  }
  return 'No plugin skills were read: ~/.claude/plugins/ does not exist.';
}
