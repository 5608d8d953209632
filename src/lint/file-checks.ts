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
import { type LintCode, type LintProfile, type LintThresholds, type RawFinding } from './codes.js';
import { findingAt, skillFinding, type FindingPlace } from './finding.js';
import { frontmatterLines } from './lines.js';
import type { LintSkill } from './skill.js';

/** Looks up the frontmatter line of `field` in `skill`'s SKILL.md. */
export type LineFn = (skill: LintSkill, field: string) => number | undefined;

// Validation warnings passed through under their own code, per profile; the flag warnings have
// checks of their own. The spec profile measures DESCRIPTION_TOO_LONG itself (in code points, as
// the spec's validator does) and reports every field outside the spec as SPEC_FIELD
// (spec-profile.ts); the default profile reports the Codex cut as DESCRIPTION_TRUNCATED instead.
const PASSED: Readonly<Record<LintProfile, ReadonlySet<string>>> = {
  lenient: new Set([
    'NAME_INVALID',
    'NAME_FOLDER_MISMATCH',
    'FIELD_TYPE',
    'UNKNOWN_FIELD',
    'CONFUSABLE_CHARACTERS',
    'FRONTMATTER_LENIENT',
  ]),
  spec: new Set([
    'NAME_INVALID',
    'NAME_FOLDER_MISMATCH',
    'FIELD_TYPE',
    'CONFUSABLE_CHARACTERS',
    'FRONTMATTER_LENIENT',
    'NAME_FROM_FOLDER',
  ]),
};

const SPEC_FIX: Partial<Record<LintCode, string>> = {
  NAME_INVALID: 'use 1-64 characters of a-z, 0-9 and single inner hyphens',
  NAME_FOLDER_MISMATCH: 'rename the folder or the name so they are equal',
  DESCRIPTION_TOO_LONG: 'shorten the description to 1,024 characters; move details to the body',
  FIELD_TYPE:
    'write the field as the spec types it (a string; keywords and tags a list of strings)',
  UNKNOWN_FIELD: 'remove the field, or move it under metadata:',
  CONFUSABLE_CHARACTERS: 'retype the word in Latin letters',
  FRONTMATTER_LENIENT:
    'quote the value (description: "…: …") so every YAML parser reads it: Claude Code then reads the description and can route the skill',
  NAME_FROM_FOLDER: 'add name: <the folder name> to the frontmatter',
};

// Issue 35: Claude Code parses frontmatter strictly; on a file strict YAML refuses it still lists the
// skill, but without its description, so no request routes to it there. skilldex's lenient reader
// routes it; the finding says which host cannot.
const LENIENT_HOSTS =
  '. Claude Code and other strict-YAML hosts do not read its description: they list the skill without one, so it is never routed there (skilldex reads it leniently and routes it)';

/** Every validation warning of `skill` the profile reports, with the field it is about. */
export function checkSpec(
  skill: LintSkill,
  lines: LineFn,
  profile: LintProfile = 'lenient',
): RawFinding[] {
  return skill.warnings
    .filter((w) => PASSED[profile].has(w.code))
    .map((w) => {
      const code = w.code as LintCode;
      const field = fieldOf(w, skill);
      // A warning that carries its own line (FRONTMATTER_LENIENT) is reported there.
      const line = w.line ?? (field !== undefined ? lines(skill, field) : undefined);
      const lenient = code === 'FRONTMATTER_LENIENT';
      return skillFinding(code, skill, line, field, {
        message: `${field !== undefined ? `field ${field}: ` : ''}${escapeInvisible(stripLabel(w.message, w.path))}${lenient ? LENIENT_HOSTS : ''}`,
        fix: fixOf(w, code),
        details: {
          problem_code: w.code,
          ...(field !== undefined ? { field } : {}),
          ...namePattern(code, skill),
          // Issue 35: where the skill is listed without its description (so never routed).
          ...(lenient ? { hosts_without_description: ['claude-code'] } : {}),
        },
      });
    });
}

/**
 * How a name breaks the rules, so one mistake made across a library (title-cased names, snake_case
 * names) is one finding (group.ts): for NAME_INVALID the first rule the name breaks; for
 * NAME_FOLDER_MISMATCH whether the folder is the name's own slug (a casing or spacing difference).
 */
export function namePattern(code: LintCode, skill: LintSkill): { pattern?: string } {
  const n = skill.name;
  if (code === 'NAME_INVALID') {
    const pattern =
      n.length > 64
        ? 'over 64 characters'
        : /\s/.test(n)
          ? 'spaces'
          : /[A-Z]/.test(n)
            ? 'uppercase letters'
            : n.includes('_')
              ? 'underscores'
              : /^-|-$/.test(n)
                ? 'a leading or trailing hyphen'
                : n.includes('--')
                  ? 'a double hyphen'
                  : 'characters outside a-z, 0-9 and -';
    return { pattern };
  }
  if (code === 'NAME_FOLDER_MISMATCH') {
    const folder = skill.path.split(/[\\/]/).at(-2) ?? '';
    const slug = n
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '');
    return { pattern: slug === folder ? 'the folder is the name as a slug' : 'different' };
  }
  return {};
}

// The field a spec warning is about: fixed per code, or named in the validator's message.
function fieldOf(w: Problem, skill: LintSkill): string | undefined {
  // As a string: FRONTMATTER_LENIENT comes from the lenient frontmatter parser (the routing issue).
  switch (w.code as string) {
    case 'NAME_INVALID':
    case 'NAME_FOLDER_MISMATCH':
      return 'name';
    case 'DESCRIPTION_TOO_LONG':
      return 'description';
    case 'FRONTMATTER_LENIENT':
      return w.line !== undefined ? keyAtLine(skill.text, w.line) : undefined;
    case 'NAME_FROM_FOLDER':
      return 'name';
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

// The top-level frontmatter key whose value spans `line` (the last key at or before it).
function keyAtLine(text: string, line: number): string | undefined {
  let best: [string, number] | undefined;
  for (const [k, l] of frontmatterLines(text))
    if (l <= line && (best === undefined || l > best[1])) best = [k, l];
  return best?.[0];
}

// The fix of a warning: per code, except a repeated key (FRONTMATTER_LENIENT), which is removed.
function fixOf(w: Problem, code: LintCode): string | undefined {
  if (code === 'FRONTMATTER_LENIENT' && /given twice/.test(w.message))
    return 'remove the repeated key: strict YAML (Claude Code) refuses the file and drops its description; lenient readers keep the last value';
  return SPEC_FIX[code];
}

// A problem's message without its `<file>: ` or `<file>:<line>: ` prefix (the finding has both).
function stripLabel(message: string, label: string): string {
  if (!message.startsWith(label)) return message;
  const m = /^:(?:\d+:)? /.exec(message.slice(label.length));
  return m ? message.slice(label.length + m[0].length) : message;
}

/** HIDDEN_TEXT for each routed field holding invisible or bidi-control characters. */
export function checkHidden(skill: LintSkill, lines: LineFn): RawFinding[] {
  const fields: [string, string][] = [
    ['name', skill.name],
    ['description', skill.description],
    ['when_to_use', skill.when_to_use ?? ''],
    ['keywords', skill.keywords.join('\n')],
    ['tags', skill.tags.join('\n')],
  ];
  const out: RawFinding[] = [];
  for (const [field, text] of fields) {
    const chars = findHiddenCharacters(text);
    if (chars.length === 0) continue;
    out.push(
      skillFinding('HIDDEN_TEXT', skill, lines(skill, field), field, {
        message: `field ${field} holds invisible or bidi-control characters ${chars.join(', ')}: ${JSON.stringify(escapeInvisible(excerpt(text)))}`,
        fix: 'delete the invisible characters: a reader cannot see what the agent is told',
        details: { field, characters: chars },
      }),
    );
  }
  return out;
}

/** INSTRUCTION_LIKE for description and when_to_use when they address the agent. */
export function checkInstructionLike(skill: LintSkill, lines: LineFn): RawFinding[] {
  const out: RawFinding[] = [];
  for (const [field, text] of [
    ['description', skill.description],
    ['when_to_use', skill.when_to_use ?? ''],
  ] as const) {
    const phrases = findInstructionLike(text);
    if (phrases.length === 0) continue;
    out.push(
      skillFinding('INSTRUCTION_LIKE', skill, lines(skill, field), field, {
        message: `field ${field} reads like instructions to the agent: ${phrases.map((p) => JSON.stringify(escapeInvisible(p))).join(', ')}`,
        fix: 'describe what the skill does and when to use it; never address the agent',
        details: { field, phrases },
      }),
    );
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
): RawFinding[] {
  // A DUPLICATE finding is on the copy's name line, naming the skill `id` when it is known.
  const copyAt = (file: string, id: string | undefined): FindingPlace => ({
    skill_ids: id !== undefined ? [id] : [],
    path: file,
    line: lineOfFile(file, 'name'),
  });
  const out: RawFinding[] = [];
  for (const k of scan.skipped) {
    out.push(
      findingAt(
        'SKIPPED',
        { skill_ids: [], path: k.path, line: k.line },
        {
          message: `${k.code}: ${escapeInvisible(stripLabel(k.reason, k.path))}`,
          fix: 'fix the file so it parses: a --- fenced YAML frontmatter with a name and a description',
          details: { problem_code: k.code },
        },
      ),
    );
  }
  for (const s of scan.shadowed) {
    const at = { skill_id: s.skill_id, path: s.shadowed };
    out.push(
      skillFinding('SHADOWED', at, lineOfFile(s.shadowed, 'name'), 'name', {
        message: `${escapeInvisible(s.skill_id)} here (${s.shadowed_scope}) is shadowed by ${escapeInvisible(s.winner)} (${s.winner_scope}): this file is never served`,
        fix: 'rename one of the two skills, or delete the copy that loses',
        details: {
          winner: s.winner,
          winner_scope: s.winner_scope,
          shadowed_scope: s.shadowed_scope,
        },
      }),
    );
  }
  for (const d of scan.duplicates) {
    const id = idOfPath(d.kept);
    for (const copy of d.copies) {
      out.push(
        findingAt('DUPLICATE', copyAt(copy, id), {
          message: `byte-identical copy of ${escapeInvisible(d.kept)}`,
          fix: 'delete the copy or link it, so one file is edited',
          details: { kind: 'identical', kept: d.kept, revision_id: d.revision_id },
        }),
      );
    }
  }
  for (const n of scan.near_duplicates) {
    const [kept, ...others] = n.paths;
    for (const other of others) {
      out.push(
        findingAt('DUPLICATE', copyAt(other, idOfPath(other)), {
          message: `differs from ${escapeInvisible(kept!)} only by BOM or line endings`,
          fix: 'keep one file',
          details: { kind: 'bom-or-line-endings', kept, normalized_sha256: n.normalized_sha256 },
        }),
      );
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
): RawFinding | undefined {
  if (history.fetches > 0 || history.suggestions < t.never_fetched_suggestions) return undefined;
  return skillFinding('NEVER_FETCHED', skill, lines(skill, 'description'), 'description', {
    message: `suggested ${history.suggestions} times and never fetched: agents see it and pass it over`,
    fix: 'make the description say plainly when the skill applies, or archive the skill',
    details: {
      suggestions: history.suggestions,
      fetches: 0,
      min_suggestions: t.never_fetched_suggestions,
    },
  });
}

function excerpt(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 80 ? `${one.slice(0, 79)}…` : one;
}
