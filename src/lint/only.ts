/**
 * `skilldex lint --only` (issue #28): which lint codes a run reports, by code or by group name. A
 * group names several codes (`security`: security.ts SECURITY_CODES). Pure.
 */
import { SkilldexError } from '../errors.js';
import { LINT_CODES, type LintCode } from './codes.js';
import { SECURITY_CODES } from './security.js';

/** The named groups of lint codes. */
export const LINT_GROUPS: Readonly<Record<string, readonly LintCode[]>> = Object.freeze({
  security: SECURITY_CODES,
});

/** Codes that need the skills ranked against a catalog (or its telemetry). */
export const RANKING_CODES: readonly LintCode[] = [
  'UNREACHABLE',
  'CONFUSABLE',
  'CATALOG_STALE',
  'NEVER_FETCHED',
];

/**
 * The codes `only` selects (each entry a code or a group name, in any case), or undefined for all
 * of them. INVALID_ARGUMENT for an entry that is neither.
 */
export function selectCodes(
  only: readonly string[] | undefined,
): ReadonlySet<LintCode> | undefined {
  if (only === undefined || only.length === 0) return undefined;
  const out = new Set<LintCode>();
  for (const raw of only) {
    const name = raw.trim();
    const group = LINT_GROUPS[name.toLowerCase()];
    if (group) for (const c of group) out.add(c);
    else if (Object.hasOwn(LINT_CODES, name.toUpperCase())) out.add(name.toUpperCase() as LintCode);
    else
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `--only ${JSON.stringify(raw)} is neither a lint code nor a group (groups: ${Object.keys(LINT_GROUPS).join(', ')})`,
        { option: '--only', value: raw },
      );
  }
  return out;
}
