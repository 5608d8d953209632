/**
 * How a check makes a finding: the code's severity from LINT_CODES, the line and field set only
 * when known, and the keys in the one order every finding is printed in. (The security checks,
 * whose severity can rise with the evidence, make theirs in security.ts.)
 */
import { LINT_CODES, type LintCode, type RawFinding } from './codes.js';

/** Where a finding is: the skills it names, the SKILL.md, the frontmatter line and field when known. */
export interface FindingPlace {
  readonly skill_ids: readonly string[];
  readonly path: string;
  readonly line: number | undefined;
  readonly field?: string | undefined;
}

/** What a finding says: its message, the fix (when there is one) and its evidence. */
export interface FindingText {
  readonly message: string;
  readonly fix?: string | undefined;
  readonly details: Readonly<Record<string, unknown>>;
}

/** A finding of `code` at `at`, with its code's severity. */
export function findingAt(code: LintCode, at: FindingPlace, text: FindingText): RawFinding {
  return {
    code,
    severity: LINT_CODES[code].severity,
    skill_ids: at.skill_ids,
    path: at.path,
    ...(at.line !== undefined ? { line: at.line } : {}),
    ...(at.field !== undefined ? { field: at.field } : {}),
    message: text.message,
    ...(text.fix !== undefined ? { fix: text.fix } : {}),
    details: text.details,
  };
}

/** A finding of `code` about one skill, in its own SKILL.md at `field` (on `line` when known). */
export function skillFinding(
  code: LintCode,
  skill: { readonly skill_id: string; readonly path: string },
  line: number | undefined,
  field: string | undefined,
  text: FindingText,
): RawFinding {
  return findingAt(code, { skill_ids: [skill.skill_id], path: skill.path, line, field }, text);
}
