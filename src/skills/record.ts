/**
 * SkillRecord: one parsed, validated SKILL.md and where it came from, plus `loadSkillFile`, which
 * turns one file into a record or a coded skip. The hash and the parse come from one read.
 */
import path from 'node:path';
import { assertKnownOptions, problem, type Problem } from '../errors.js';
import { readHeadHashed, type FileIdentity } from '../fsx/index.js';
import { checkParsedSize, parseFrontmatter, splitFrontmatter } from './frontmatter.js';
import type { ScopeKind } from './scopes.js';
import { validateFrontmatter, type SkillFields } from './validate.js';

/** One discovered skill. Contract fields are snake_case, as --json and MCP print them. */
export interface SkillRecord extends SkillFields {
  /** The frontmatter name; `plugin:name` for a plugin's skill (docs/integration.md §1). */
  readonly skill_id: string;
  /** Absolute path as walked (through links). */
  readonly path: string;
  /** Absolute real path. */
  readonly real_path: string;
  readonly scope: ScopeKind;
  readonly scope_path: string;
  readonly plugin?: string;
  /** `sha256:<hex>` of the file's exact bytes. */
  readonly revision_id: string;
  /** sha256 of the bytes with BOM removed and CRLF folded to LF: equal for near-duplicates. */
  readonly normalized_sha256: string;
  readonly size: number;
  readonly mtime_ms: number;
  /** Character offset of the body in the BOM-less text. */
  readonly body_offset: number;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** Every path whose bytes equal this revision (this one first). */
  readonly provenance: readonly string[];
  /** The first `bodyExcerptChars` characters of the body, only when loadSkillFile was asked for them. */
  readonly body_excerpt?: string;
}

/** Where a file was found: its scope. */
export interface FileOrigin {
  readonly path: string;
  readonly realPath: string;
  readonly scope: ScopeKind;
  readonly scopePath: string;
  readonly plugin?: string;
  /** Device and inode the walk saw; the opened file must match them. */
  readonly identity?: FileIdentity;
  /** Size and mtime (ms) from the walk's stat: ingest compares them with its last index. */
  readonly seen?: { readonly size: number; readonly mtimeMs: number };
  /** True when the walk found SKILL.md alone in its folder: it has no supporting files to list. */
  readonly alone?: boolean;
}

/** The options `loadSkillFile` knows. */
const LOAD_OPTION_KEYS: readonly string[] = [
  'maxBytes',
  'maxFrontmatterBytes',
  'bodyExcerptChars',
  'keepText',
];

/**
 * Reads the frontmatter of one SKILL.md through a bounded read (the body is hashed, never kept),
 * then splits, parses, size-checks and validates it. Never throws for a bad file (only
 * INVALID_ARGUMENT for an unknown option). `maxBytes` caps the whole file (default 256 MiB),
 * `maxFrontmatterBytes` the head read as text (default 64 KiB, the frontmatter's cap);
 * `bodyExcerptChars` returns up to that much of the body as `body_excerpt`, from the same head
 * (so at most what follows the frontmatter within the head). `keepText` also returns the whole
 * file as `text` (its BOM kept) when it fit in the head: what an index stores for `diff` without
 * reading the file again.
 */
export function loadSkillFile(
  origin: FileOrigin,
  options: {
    maxBytes?: number;
    maxFrontmatterBytes?: number;
    bodyExcerptChars?: number;
    keepText?: boolean;
  } = {},
): { ok: true; record: SkillRecord; text?: string } | { ok: false; problem: Problem } {
  assertKnownOptions(options, LOAD_OPTION_KEYS, 'loadSkillFile');
  const label = origin.path;
  const file = readHeadHashed(origin.realPath, {
    label,
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
    ...(options.maxFrontmatterBytes !== undefined
      ? { headBytes: options.maxFrontmatterBytes }
      : {}),
    ...(origin.identity !== undefined ? { expect: origin.identity } : {}),
  });
  if (!file.ok) return { ok: false, problem: file.problem };
  const split = splitFrontmatter(file.head, label);
  if (!split.ok) {
    // The head was cut before the closing fence: the frontmatter itself is over its cap.
    if (file.truncated && split.problem.code === 'FRONTMATTER_UNCLOSED') {
      return {
        ok: false,
        problem: problem(
          'FRONTMATTER_TOO_LARGE',
          label,
          `${label}: the frontmatter does not close within ${file.head.length} characters, over its cap`,
          1,
        ),
      };
    }
    return split;
  }
  const parsed = parseFrontmatter(split.yaml, label, split.yamlLine);
  if (!parsed.ok) return parsed;
  const budget = checkParsedSize(parsed.data, split.yaml.length, label, split.yamlLine);
  if (budget !== undefined) return { ok: false, problem: budget };
  const folder = path.basename(path.dirname(origin.path));
  const valid = validateFrontmatter(parsed.data, folder, label);
  if (!valid.ok) return valid;
  const f = valid.fields;
  // Values strict YAML refused but hosts load: indexed as read, each reported with its fix.
  const lenient = parsed.lenient.map((v) =>
    problem(
      'FRONTMATTER_LENIENT',
      label,
      v.reason === 'duplicate-key'
        ? `${label}:${v.line}: ${v.key} is given twice inside a nested map (invalid YAML); the last value is used, as PyYAML reads it; remove one`
        : `${label}:${v.line}: ${v.key} is not valid YAML as written (an unquoted ": " or similar); read as the whole line, as hosts read it; quote the value to make it valid`,
      v.line,
    ),
  );
  const record: SkillRecord = {
    skill_id: origin.scope === 'plugin' && origin.plugin ? `${origin.plugin}:${f.name}` : f.name,
    name: f.name,
    description: f.description,
    ...(f.when_to_use !== undefined ? { when_to_use: f.when_to_use } : {}),
    ...(f.version !== undefined ? { version: f.version } : {}),
    keywords: f.keywords,
    tags: f.tags,
    path: origin.path,
    real_path: origin.realPath,
    scope: origin.scope,
    scope_path: origin.scopePath,
    ...(origin.plugin !== undefined ? { plugin: origin.plugin } : {}),
    revision_id: file.sha256,
    normalized_sha256: file.normalizedSha256,
    size: file.size,
    mtime_ms: file.mtimeMs,
    body_offset: split.bodyOffset,
    frontmatter: parsed.data,
    warnings: lenient.length > 0 ? [...lenient, ...f.warnings] : f.warnings,
    flags: f.flags,
    provenance: [origin.path],
    ...(options.bodyExcerptChars !== undefined
      ? {
          body_excerpt: file.head.slice(
            split.bodyOffset,
            split.bodyOffset + options.bodyExcerptChars,
          ),
        }
      : {}),
  };
  if (options.keepText !== true || file.truncated) return { ok: true, record };
  return { ok: true, record, text: file.hasBom ? `\ufeff${file.head}` : file.head };
}
