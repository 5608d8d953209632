/**
 * Validation of parsed frontmatter against the Agent Skills spec (agentskills validator: name
 * 1–64 chars of [a-z0-9-], no leading, trailing or double hyphen, equal to its folder; description
 * 1–1024 chars) and the fields Claude Code and other clients use. A spec violation is a warning on
 * the record; only a missing name or description refuses the file. Suspicious text is flagged
 * (src/text/flags.ts) and kept as data.
 */
import { problem, type Problem } from '../errors.js';
import { findConfusables, findHiddenCharacters, findInstructionLike } from '../text/index.js';

/** Longest valid name (Agent Skills spec). */
export const MAX_NAME_CHARS = 64;
/** Longest valid description (Agent Skills spec). */
export const MAX_DESCRIPTION_CHARS = 1024;

/** Longest valid version: one short line (a semver with build metadata fits in 64). */
export const MAX_VERSION_CHARS = 64;
/** Most keywords, and most tags, a skill may list (skip beyond): 64, far above real libraries (under 10). */
export const MAX_LIST_ITEMS = 64;
/** Longest keyword or tag (skip beyond): 128 characters, a short phrase. */
export const MAX_LIST_ITEM_CHARS = 128;

const NAME_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The frontmatter fields the agentskills spec defines. */
export const SPEC_FIELDS: readonly string[] = [
  'name',
  'description',
  'license',
  'compatibility',
  'metadata',
  'allowed-tools',
];

/** Fields of the Agent Skills spec plus the extensions Claude Code and other clients read. */
export const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  ...SPEC_FIELDS,
  'when_to_use',
  'version',
  'keywords',
  'tags',
  // Claude Code's own fields: the frontmatter reference of code.claude.com/docs/en/skills
  // ("Frontmatter reference"): name, description, when_to_use, argument-hint, arguments,
  // disable-model-invocation, user-invocable, allowed-tools, disallowed-tools, model, effort,
  // context, agent, background, hooks, paths, shell, plus the spec's metadata, license and
  // compatibility (issue 35; checked against copies of that reference found with the search tool).
  'argument-hint',
  'arguments',
  'disable-model-invocation',
  'user-invocable',
  'disallowed-tools',
  'model',
  'effort',
  'context',
  'agent',
  'background',
  'hooks',
  'paths',
  'shell',
]);

/** The fields skilldex reads from a validated frontmatter. */
export interface SkillFields {
  readonly name: string;
  readonly description: string;
  readonly when_to_use?: string;
  /** Frontmatter `version` or `metadata.version`, when present. */
  readonly version?: string;
  readonly keywords: readonly string[];
  readonly tags: readonly string[];
  readonly warnings: readonly Problem[];
  /** Flags on suspicious text: HIDDEN_CHARACTERS, CONFUSABLE_CHARACTERS, INSTRUCTION_LIKE codes. */
  readonly flags: readonly string[];
}

/**
 * Validates `data` of the SKILL.md at `label` whose folder is `folderName`. Returns the fields and
 * warnings, or a skip problem (MISSING_NAME for a name that is there but empty or not a scalar,
 * MISSING_DESCRIPTION). A frontmatter without a `name` key takes its folder's name, as Claude Code
 * names such skills (the trigger benchmark's bentoo skills; NAME_FROM_FOLDER warns).
 */
export function validateFrontmatter(
  data: Record<string, unknown>,
  folderName: string,
  label: string,
): { ok: true; fields: SkillFields } | { ok: false; problem: Problem } {
  const warnings: Problem[] = [];
  const name = nameOf(data, folderName, label, warnings);
  if (typeof name !== 'string') return { ok: false, problem: name.skip };
  const description = scalarString(data['description']);
  if (description === undefined || description.trim() === '') {
    return {
      ok: false,
      problem: problem(
        'MISSING_DESCRIPTION',
        label,
        `${label}: frontmatter has no description (a non-empty string)`,
      ),
    };
  }
  checkSpecFields(data, name, description, folderName, label, warnings);
  const keywords = stringList(data['keywords'], 'keywords', label, warnings);
  const tags = stringList(data['tags'], 'tags', label, warnings);
  for (const [field, list] of [
    ['keywords', keywords],
    ['tags', tags],
  ] as const) {
    const over = listOverCap(list, field, label);
    if (over !== undefined) return { ok: false, problem: over };
  }
  const version = versionOf(data, label, warnings);
  const whenToUse = scalarString(data['when_to_use']);
  const flags = textFlags({ name, description, whenToUse, keywords, tags }, label, warnings);
  const fields: SkillFields = {
    name,
    description,
    ...(whenToUse !== undefined ? { when_to_use: whenToUse } : {}),
    ...(version !== undefined ? { version } : {}),
    keywords,
    tags,
    warnings,
    flags,
  };
  return { ok: true, fields };
}

/**
 * The skill's name: the `name` field, else (no such key) its folder's name with NAME_FROM_FOLDER;
 * FIELD_TYPE when it is a number or a boolean. A name that is there but empty or not a scalar is a
 * MISSING_NAME skip.
 */
function nameOf(
  data: Record<string, unknown>,
  folderName: string,
  label: string,
  warnings: Problem[],
): string | { skip: Problem } {
  const absent = !Object.prototype.hasOwnProperty.call(data, 'name');
  if (absent) {
    warnings.push(
      problem(
        'NAME_FROM_FOLDER',
        label,
        `${label}: frontmatter has no name; the folder's name ${JSON.stringify(folderName)} is used, as hosts do`,
      ),
    );
  }
  const name = absent ? folderName : scalarString(data['name']);
  if (name === undefined || name.trim() === '') {
    return {
      skip: problem(
        'MISSING_NAME',
        label,
        `${label}: frontmatter has no name (a non-empty string)`,
      ),
    };
  }
  if (!absent && typeof data['name'] !== 'string') {
    warnings.push(
      problem(
        'FIELD_TYPE',
        label,
        `${label}: name should be a string, found ${typeof data['name']}`,
      ),
    );
  }
  return name;
}

/** The spec's warnings on name, description and keys: NAME_INVALID, NAME_FOLDER_MISMATCH, DESCRIPTION_TOO_LONG, UNKNOWN_FIELD. */
function checkSpecFields(
  data: Record<string, unknown>,
  name: string,
  description: string,
  folderName: string,
  label: string,
  warnings: Problem[],
): void {
  if (name.length > MAX_NAME_CHARS || !NAME_RE.test(name)) {
    warnings.push(
      problem(
        'NAME_INVALID',
        label,
        `${label}: name ${JSON.stringify(name)} must be 1-${MAX_NAME_CHARS} chars of a-z, 0-9 and single inner hyphens`,
      ),
    );
  }
  if (name !== folderName) {
    warnings.push(
      problem(
        'NAME_FOLDER_MISMATCH',
        label,
        `${label}: name ${JSON.stringify(name)} differs from its folder ${JSON.stringify(folderName)}`,
      ),
    );
  }
  if (description.length > MAX_DESCRIPTION_CHARS) {
    warnings.push(
      problem(
        'DESCRIPTION_TOO_LONG',
        label,
        `${label}: description is ${description.length} characters, over ${MAX_DESCRIPTION_CHARS}`,
      ),
    );
  }
  for (const key of Object.keys(data)) {
    if (!KNOWN_FIELDS.has(key))
      warnings.push(
        problem('UNKNOWN_FIELD', label, `${label}: unknown field ${JSON.stringify(key)}`),
      );
  }
}

/** `version`, else `metadata.version`; VERSION_INVALID when it is not one short line. */
function versionOf(
  data: Record<string, unknown>,
  label: string,
  warnings: Problem[],
): string | undefined {
  const metadata = data['metadata'];
  const metaVersion =
    metadata && typeof metadata === 'object' && !Array.isArray(metadata)
      ? scalarString((metadata as Record<string, unknown>)['version'])
      : undefined;
  const version = scalarString(data['version']) ?? metaVersion;
  if (version !== undefined && !isShortLine(version)) {
    warnings.push(
      problem(
        'VERSION_INVALID',
        label,
        `${label}: version must be one line of at most ${MAX_VERSION_CHARS} characters without control characters (found ${version.length} characters)`,
      ),
    );
  }
  return version;
}

/**
 * The flags on suspicious text (kept as data), each with its warning: HIDDEN_CHARACTERS anywhere
 * in the routing fields, CONFUSABLE_CHARACTERS in name or description, INSTRUCTION_LIKE in
 * description or when_to_use.
 */
function textFlags(
  f: {
    name: string;
    description: string;
    whenToUse: string | undefined;
    keywords: readonly string[];
    tags: readonly string[];
  },
  label: string,
  warnings: Problem[],
): string[] {
  const flags = new Set<string>();
  const text = [f.name, f.description, f.whenToUse ?? '', ...f.keywords, ...f.tags].join('\n');
  const hidden = findHiddenCharacters(text);
  if (hidden.length > 0) {
    flags.add('HIDDEN_CHARACTERS');
    warnings.push(
      problem(
        'HIDDEN_CHARACTERS',
        label,
        `${label}: invisible or bidi-control characters ${hidden.join(', ')}`,
      ),
    );
  }
  if (findConfusables(f.name) || findConfusables(f.description)) {
    flags.add('CONFUSABLE_CHARACTERS');
    warnings.push(
      problem(
        'CONFUSABLE_CHARACTERS',
        label,
        `${label}: Latin text mixed with look-alike Cyrillic or Greek letters`,
      ),
    );
  }
  const phrases = findInstructionLike(f.description + '\n' + (f.whenToUse ?? ''));
  if (phrases.length > 0) {
    flags.add('INSTRUCTION_LIKE');
    warnings.push(
      problem(
        'INSTRUCTION_LIKE',
        label,
        `${label}: description reads like instructions (${phrases.map((p) => JSON.stringify(p)).join(', ')}); treated as data`,
      ),
    );
  }
  return [...flags];
}

function scalarString(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

// keywords and tags: a YAML list of scalars, or one comma-separated string.
function stringList(v: unknown, field: string, label: string, warnings: Problem[]): string[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string')
    return v
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  if (Array.isArray(v)) {
    const out: string[] = [];
    for (const item of v) {
      const s = scalarString(item);
      if (s === undefined) {
        warnings.push(problem('FIELD_TYPE', label, `${label}: ${field} items must be strings`));
        continue;
      }
      if (s.trim() !== '') out.push(s.trim());
    }
    return out;
  }
  warnings.push(
    problem(
      'FIELD_TYPE',
      label,
      `${label}: ${field} must be a list of strings or a comma-separated string`,
    ),
  );
  return [];
}

// One short line: no line break, no C0/C1 control, at most MAX_VERSION_CHARS characters.
function isShortLine(s: string): boolean {
  return s.length <= MAX_VERSION_CHARS && !/[\u0000-\u001F\u007F-\u009F\u2028\u2029]/.test(s);
}

function listOverCap(list: readonly string[], field: string, label: string): Problem | undefined {
  if (list.length > MAX_LIST_ITEMS) {
    return problem(
      'FRONTMATTER_TOO_LARGE',
      label,
      `${label}: ${field} lists ${list.length} items, over the cap of ${MAX_LIST_ITEMS}`,
    );
  }
  const long = list.find((k) => k.length > MAX_LIST_ITEM_CHARS);
  if (long !== undefined) {
    return problem(
      'FRONTMATTER_TOO_LARGE',
      label,
      `${label}: a ${field} item is ${long.length} characters, over the cap of ${MAX_LIST_ITEM_CHARS}`,
    );
  }
  return undefined;
}
