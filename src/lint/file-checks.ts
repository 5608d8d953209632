/**
 * Per-file checks (pure): spec warnings from validation with the field named, HIDDEN_TEXT and
 * INSTRUCTION_LIKE per field (src/text/flags.ts detects them), discovery's SKIPPED, SHADOWED and
 * DUPLICATE, and NEVER_FETCHED from telemetry counts. Quoted skill text is escaped, never raw.
 */
import type { Problem } from '../errors.js';
import type {
  DuplicateGroup,
  NearDuplicateGroup,
  ShadowedSkill,
  SkippedFile,
} from '../skills/index.js';
import {
  escapeInvisible,
  findConfusables,
  findHiddenCharacters,
  findInstructionLike,
} from '../text/index.js';
import { LINT_CODES, type LintCode, type LintFinding, type LintThresholds } from './codes.js';
import type { LintSkill } from './skill.js';

/** Looks up the frontmatter line of `field` in `skill`'s SKILL.md. */
export type LineFn = (skill: LintSkill, field: string) => number | undefined;

// Spec warnings passed through under their own code; the flag warnings have checks of their own.
const SPEC_CODES: ReadonlySet<string> = new Set([
  'NAME_INVALID',
  'NAME_FOLDER_MISMATCH',
  'DESCRIPTION_TOO_LONG',
  'FIELD_TYPE',
  'UNKNOWN_FIELD',
  'CONFUSABLE_CHARACTERS',
]);

const SPEC_FIX: Partial<Record<LintCode, string>> = {
  NAME_INVALID: 'use 1-64 characters of a-z, 0-9 and single inner hyphens',
  NAME_FOLDER_MISMATCH: 'rename the folder or the name so they are equal',
  DESCRIPTION_TOO_LONG: 'shorten the description to 1,024 characters; move details to the body',
  FIELD_TYPE:
    'write the field as the spec types it (a string; keywords and tags a list of strings)',
  UNKNOWN_FIELD: 'remove the field, or move it under metadata:',
  CONFUSABLE_CHARACTERS: 'retype the word in Latin letters',
};

/** Every spec warning of `skill`, with the field it is about. */
export function checkSpec(skill: LintSkill, lines: LineFn): LintFinding[] {
  return skill.warnings
    .filter((w) => SPEC_CODES.has(w.code))
    .map((w) => {
      const code = w.code as LintCode;
      const field = fieldOf(w, skill);
      const line = field !== undefined ? lines(skill, field) : undefined;
      return {
        code,
        severity: LINT_CODES[code].severity,
        skill_ids: [skill.skill_id],
        path: skill.path,
        ...(line !== undefined ? { line } : {}),
        ...(field !== undefined ? { field } : {}),
        message: `${field !== undefined ? `field ${field}: ` : ''}${escapeInvisible(stripLabel(w.message, w.path))}`,
        ...(SPEC_FIX[code] !== undefined ? { fix: SPEC_FIX[code] } : {}),
        details: { problem_code: w.code, ...(field !== undefined ? { field } : {}) },
      };
    });
}

// The field a spec warning is about: fixed per code, or named in the validator's message.
function fieldOf(w: Problem, skill: LintSkill): string | undefined {
  switch (w.code) {
    case 'NAME_INVALID':
    case 'NAME_FOLDER_MISMATCH':
      return 'name';
    case 'DESCRIPTION_TOO_LONG':
      return 'description';
    case 'CONFUSABLE_CHARACTERS':
      return findConfusables(skill.name) ? 'name' : 'description';
    case 'UNKNOWN_FIELD': {
      const m = /unknown field ("(?:[^"\\]|\\.)*")$/.exec(w.message);
      return m ? (JSON.parse(m[1]!) as string) : undefined;
    }
    case 'FIELD_TYPE': {
      const m = /: ([\w-]+) (?:should|must|items)\b/.exec(w.message);
      return m ? m[1] : undefined;
    }
    default:
      return undefined;
  }
}

function stripLabel(message: string, label: string): string {
  return message.startsWith(`${label}: `) ? message.slice(label.length + 2) : message;
}

/** HIDDEN_TEXT for each routed field holding invisible or bidi-control characters. */
export function checkHidden(skill: LintSkill, lines: LineFn): LintFinding[] {
  const fields: [string, string][] = [
    ['name', skill.name],
    ['description', skill.description],
    ['when_to_use', skill.when_to_use ?? ''],
    ['keywords', skill.keywords.join('\n')],
    ['tags', skill.tags.join('\n')],
  ];
  const out: LintFinding[] = [];
  for (const [field, text] of fields) {
    const chars = findHiddenCharacters(text);
    if (chars.length === 0) continue;
    const line = lines(skill, field);
    out.push({
      code: 'HIDDEN_TEXT',
      severity: LINT_CODES.HIDDEN_TEXT.severity,
      skill_ids: [skill.skill_id],
      path: skill.path,
      ...(line !== undefined ? { line } : {}),
      field,
      message: `field ${field} holds invisible or bidi-control characters ${chars.join(', ')}: ${JSON.stringify(escapeInvisible(excerpt(text)))}`,
      fix: 'delete the invisible characters: a reader cannot see what the agent is told',
      details: { field, characters: chars },
    });
  }
  return out;
}

/** INSTRUCTION_LIKE for description and when_to_use when they address the agent. */
export function checkInstructionLike(skill: LintSkill, lines: LineFn): LintFinding[] {
  const out: LintFinding[] = [];
  for (const [field, text] of [
    ['description', skill.description],
    ['when_to_use', skill.when_to_use ?? ''],
  ] as const) {
    const phrases = findInstructionLike(text);
    if (phrases.length === 0) continue;
    const line = lines(skill, field);
    out.push({
      code: 'INSTRUCTION_LIKE',
      severity: LINT_CODES.INSTRUCTION_LIKE.severity,
      skill_ids: [skill.skill_id],
      path: skill.path,
      ...(line !== undefined ? { line } : {}),
      field,
      message: `field ${field} reads like instructions to the agent: ${phrases.map((p) => JSON.stringify(escapeInvisible(p))).join(', ')}`,
      fix: 'describe what the skill does and when to use it; never address the agent',
      details: { field, phrases },
    });
  }
  return out;
}

/** Discovery's findings: SKIPPED files, SHADOWED ids and DUPLICATE copies. */
export function checkDiscovery(
  scan: {
    readonly skipped: readonly SkippedFile[];
    readonly shadowed: readonly ShadowedSkill[];
    readonly duplicates: readonly DuplicateGroup[];
    readonly near_duplicates: readonly NearDuplicateGroup[];
  },
  idOfPath: (p: string) => string | undefined,
  lineOfFile: (p: string, field: string) => number | undefined = () => undefined,
): LintFinding[] {
  const out: LintFinding[] = [];
  for (const k of scan.skipped) {
    out.push({
      code: 'SKIPPED',
      severity: LINT_CODES.SKIPPED.severity,
      skill_ids: [],
      path: k.path,
      ...(k.line !== undefined ? { line: k.line } : {}),
      message: `${k.code}: ${escapeInvisible(stripLabel(k.reason, k.path))}`,
      fix: 'fix the file so it parses: a --- fenced YAML frontmatter with a name and a description',
      details: { problem_code: k.code },
    });
  }
  for (const s of scan.shadowed) {
    const line = lineOfFile(s.shadowed, 'name');
    out.push({
      code: 'SHADOWED',
      severity: LINT_CODES.SHADOWED.severity,
      skill_ids: [s.skill_id],
      path: s.shadowed,
      ...(line !== undefined ? { line } : {}),
      field: 'name',
      message: `${escapeInvisible(s.skill_id)} here (${s.shadowed_scope}) is shadowed by ${escapeInvisible(s.winner)} (${s.winner_scope}): this file is never served`,
      fix: 'rename one of the two skills, or delete the copy that loses',
      details: { winner: s.winner, winner_scope: s.winner_scope, shadowed_scope: s.shadowed_scope },
    });
  }
  for (const d of scan.duplicates) {
    const id = idOfPath(d.kept);
    for (const copy of d.copies) {
      const line = lineOfFile(copy, 'name');
      out.push({
        code: 'DUPLICATE',
        severity: LINT_CODES.DUPLICATE.severity,
        skill_ids: id !== undefined ? [id] : [],
        path: copy,
        ...(line !== undefined ? { line } : {}),
        message: `byte-identical copy of ${escapeInvisible(d.kept)}`,
        fix: 'delete the copy or link it, so one file is edited',
        details: { kind: 'identical', kept: d.kept, revision_id: d.revision_id },
      });
    }
  }
  for (const n of scan.near_duplicates) {
    const [kept, ...others] = n.paths;
    for (const other of others) {
      const id = idOfPath(other);
      const line = lineOfFile(other, 'name');
      out.push({
        code: 'DUPLICATE',
        severity: LINT_CODES.DUPLICATE.severity,
        skill_ids: id !== undefined ? [id] : [],
        path: other,
        ...(line !== undefined ? { line } : {}),
        message: `differs from ${escapeInvisible(kept!)} only by BOM or line endings`,
        fix: 'keep one file',
        details: { kind: 'bom-or-line-endings', kept, normalized_sha256: n.normalized_sha256 },
      });
    }
  }
  return out;
}

/** NEVER_FETCHED when a skill was suggested at least `never_fetched_suggestions` times and never fetched. */
export function checkNeverFetched(
  skill: LintSkill,
  history: { suggestions: number; fetches: number },
  lines: LineFn,
  t: LintThresholds,
): LintFinding | undefined {
  if (history.fetches > 0 || history.suggestions < t.never_fetched_suggestions) return undefined;
  const line = lines(skill, 'description');
  return {
    code: 'NEVER_FETCHED',
    severity: LINT_CODES.NEVER_FETCHED.severity,
    skill_ids: [skill.skill_id],
    path: skill.path,
    ...(line !== undefined ? { line } : {}),
    field: 'description',
    message: `suggested ${history.suggestions} times and never fetched: agents see it and pass it over`,
    fix: 'make the description say plainly when the skill applies, or archive the skill',
    details: {
      suggestions: history.suggestions,
      fetches: 0,
      min_suggestions: t.never_fetched_suggestions,
    },
  };
}

function excerpt(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 80 ? `${one.slice(0, 79)}…` : one;
}
