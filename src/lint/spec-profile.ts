/**
 * `--profile spec` (pure): the agentskills specification checked strictly, beside the default
 * profile that matches what hosts load. The spec (agentskills/agentskills docs/specification.mdx,
 * and its reference validator skills-ref/src/skills_ref/validator.py) allows six frontmatter
 * fields — `name`, `description`, `license`, `compatibility`, `metadata`, `allowed-tools` — and
 * measures lengths in code points (Python `len`): description 1–1,024, compatibility 1–500;
 * `metadata` maps string keys to string values; `allowed-tools` is a string or a list of strings.
 * Name rules are NAME_INVALID and NAME_FOLDER_MISMATCH, shared with the default profile.
 */
import { SPEC_FIELDS } from '../skills/index.js';
import { escapeInvisible } from '../text/index.js';
import type { LintCode, RawFinding } from './codes.js';
import type { LineFn } from './file-checks.js';
import { skillFinding } from './finding.js';
import { lengthIn } from './hosts.js';
import type { LintSkill } from './skill.js';

/** Spec maxima, in code points (validator.py MAX_DESCRIPTION_LENGTH, MAX_COMPATIBILITY_LENGTH). */
export const SPEC_DESCRIPTION_MAX = 1024;
export const SPEC_COMPATIBILITY_MAX = 500;

/** Every strict-spec finding of `skill` (its parsed frontmatter; none when it is not known). */
export function checkSpecProfile(skill: LintSkill, lines: LineFn): RawFinding[] {
  const fm = skill.frontmatter;
  if (fm === undefined) return [];
  const out: RawFinding[] = [];
  const add = (code: LintCode, field: string, message: string, fix: string, details: object) => {
    out.push(
      skillFinding(code, skill, lines(skill, field), field, {
        message,
        fix,
        details: { field, ...details },
      }),
    );
  };
  for (const key of Object.keys(fm)) {
    if (SPEC_FIELDS.includes(key)) continue;
    add(
      'SPEC_FIELD',
      key,
      `field ${JSON.stringify(escapeInvisible(key))} is not one of the spec's six (${SPEC_FIELDS.join(', ')})`,
      'move it under metadata: (string values), or lint with the default profile if your hosts read it',
      {},
    );
  }
  const description = skill.description;
  const dLen = lengthIn(description, 'code-points');
  if (dLen > SPEC_DESCRIPTION_MAX)
    add(
      'DESCRIPTION_TOO_LONG',
      'description',
      `description is ${dLen} characters, over the spec's ${SPEC_DESCRIPTION_MAX}`,
      `shorten the description to ${SPEC_DESCRIPTION_MAX} characters; move details to the body`,
      { length: dLen, limit: SPEC_DESCRIPTION_MAX },
    );
  typeChecks(fm, add);
  return out;
}

// The spec's types and lengths of license, compatibility, metadata and allowed-tools.
function typeChecks(
  fm: Readonly<Record<string, unknown>>,
  add: (code: LintCode, field: string, message: string, fix: string, details: object) => void,
): void {
  const str = 'write it as a string';
  if (fm['license'] !== undefined && typeof fm['license'] !== 'string')
    add('FIELD_TYPE', 'license', 'field license: must be a string', str, {});
  const compat = fm['compatibility'];
  if (compat !== undefined) {
    if (typeof compat !== 'string')
      add('FIELD_TYPE', 'compatibility', 'field compatibility: must be a string', str, {});
    else {
      const n = lengthIn(compat, 'code-points');
      if (n === 0 || n > SPEC_COMPATIBILITY_MAX)
        add(
          'COMPATIBILITY_TOO_LONG',
          'compatibility',
          `compatibility is ${n} characters; the spec allows 1-${SPEC_COMPATIBILITY_MAX}`,
          'say in one sentence what the skill needs (a product, packages, network access); drop the field if nothing',
          { length: n, limit: SPEC_COMPATIBILITY_MAX },
        );
    }
  }
  const meta = fm['metadata'];
  if (meta !== undefined) {
    const ok =
      meta !== null &&
      typeof meta === 'object' &&
      !Array.isArray(meta) &&
      Object.values(meta).every((v) => typeof v === 'string');
    if (!ok)
      add(
        'FIELD_TYPE',
        'metadata',
        'field metadata: must map string keys to string values',
        'quote every metadata value ("1.0", not 1.0); nest nothing',
        {},
      );
  }
  const tools = fm['allowed-tools'];
  if (
    tools !== undefined &&
    typeof tools !== 'string' &&
    !(Array.isArray(tools) && tools.every((v) => typeof v === 'string'))
  )
    add(
      'FIELD_TYPE',
      'allowed-tools',
      'field allowed-tools: must be a space-separated string or a list of strings',
      'write allowed-tools: Read Grep, or a YAML list of tool names',
      {},
    );
}
