/**
 * Error model of skilldex (DESIGN.md §7, STYLE.md §3): one table of failure codes with their exit
 * codes and hints, one table of soft problem codes, the thrown `SkilldexError` and the collected
 * `Problem`. This file imports nothing of ours: it is the bottom of the import graph.
 */

/** Process exit codes: 0 ok, 1 ran but found nothing usable, 2 refused, 3 integrity, 70 fault. */
export type ExitCode = 0 | 1 | 2 | 3 | 70;

/**
 * Failure codes: the operation cannot answer. Each has the exit code a command returns and a hint
 * that tells the caller what to do next. One line per code; docs render this table.
 */
export const ERROR_CODES = {
  // Arguments and environment.
  INVALID_ARGUMENT: { exit: 2, hint: 'check the command line: see --help' },
  INVALID_QUERY: { exit: 2, hint: 'give a query with at least one letter or digit' },
  MISSING_ENV: { exit: 2, hint: 'set TASK_BRIEF and EVIDENCE_TARGET, or pass --brief and --out' },
  PATH_OUTSIDE_ROOT: { exit: 2, hint: 'paths must stay inside the given root' },
  FILE_NOT_FOUND: { exit: 2, hint: 'check the path' },
  FILE_TOO_LARGE: { exit: 2, hint: 'the file is over the size cap' },
  NOT_A_FILE: { exit: 2, hint: 'give a regular file' },
  INVALID_INPUT_FILE: { exit: 2, hint: 'fix the named line of the input file' },
  SUBSTRATE_NOT_FOUND: { exit: 2, hint: 'pass --root DIR or run inside a project with a substrate/ folder' },
  CONFIG_INVALID: { exit: 2, hint: 'fix the named key of the config file (see skilldex config --help)' },
  FILE_EXISTS: { exit: 2, hint: 'the file is the user\'s: pass --force to replace it, or merge by hand' },
  // Catalog.
  CATALOG_MISSING: { exit: 2, hint: 'create one with: skilldex index --catalog FILE' },
  CATALOG_EMPTY: { exit: 2, hint: 'no generation is published yet: run skilldex index (or skilldex publish)' },
  CATALOG_CORRUPT: { exit: 3, hint: 'the catalog file is damaged or not a skilldex catalog: rebuild it with skilldex index' },
  CATALOG_TOO_NEW: { exit: 2, hint: 'the catalog was written by a newer skilldex: upgrade' },
  CATALOG_ROLLBACK: { exit: 3, hint: 'an older catalog replaced a newer one under a running reader: restart the reader or re-index' },
  CATALOG_BUSY: { exit: 2, hint: 'another skilldex process is writing this catalog: try again when it ends' },
  // The fetch contract (DESIGN.md §3).
  CATALOG_GENERATION_MISMATCH: { exit: 3, hint: 'search again: the catalog has a new published generation' },
  REVISION_MISMATCH: { exit: 3, hint: 'search again; never fetch unpinned' },
  INDEX_DRIFT: { exit: 3, hint: 'the file changed or vanished since indexing: re-index' },
  SKILL_NOT_FOUND: { exit: 3, hint: 'search again: the id is not in this generation' },
  SKILL_ARCHIVED: { exit: 3, hint: 'the skill is archived: search for another, or restore it' },
  // Lifecycle.
  INVALID_TRANSITION: { exit: 2, hint: 'see skilldex status for the skill state' },
  // Writes.
  WRITE_FAILED: { exit: 2, hint: 'check that the folder is writable and that no folder stands where a file goes' },
  // Internal.
  INTERNAL: { exit: 70, hint: 'this is a bug in skilldex: please report it with the command you ran' },
} as const satisfies Record<string, { exit: ExitCode; hint: string }>;

/** A failure code. */
export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * Problem codes: one input was bad, the run goes on. Collected into reports (skipped files,
 * warnings, crawl inconsistencies). `skip` marks problems that keep a file out of the result.
 */
export const PROBLEM_CODES = {
  // Files.
  PATH_OUTSIDE_ROOT: 'a path or link whose real path leaves the sanctioned root',
  LINK_LOOP: 'a symbolic link that leads back into a folder already walked',
  UNREADABLE: 'a file or folder that could not be read (permissions, I/O)',
  NOT_A_FILE: 'not a regular file (a FIFO, a device, a folder)',
  FILE_TOO_LARGE: 'a file over the size cap; it was not read',
  BINARY_CONTENT: 'a NUL byte: binary content',
  INVALID_UTF8: 'bytes that are not valid UTF-8',
  WALK_LIMIT: 'the walk stopped at its depth or entry bound',
  // SKILL.md frontmatter (skips).
  FRONTMATTER_MISSING: 'the file does not start with a --- fence',
  FRONTMATTER_UNCLOSED: 'the opening --- fence is never closed',
  MALFORMED_FRONTMATTER: 'the YAML between the fences does not parse, or is not a mapping',
  MISSING_NAME: 'no usable name field',
  MISSING_DESCRIPTION: 'no usable description field',
  // SKILL.md spec warnings (the skill is still indexed).
  NAME_INVALID: 'name is not 1-64 chars of [a-z0-9-] without leading, trailing or double hyphens',
  NAME_FOLDER_MISMATCH: 'name differs from its folder name',
  DESCRIPTION_TOO_LONG: 'description is over 1024 characters',
  FIELD_TYPE: 'a known field has the wrong type',
  UNKNOWN_FIELD: 'a frontmatter field outside the spec and the known extensions',
  HIDDEN_CHARACTERS: 'invisible or bidi-control characters (zero-width, bidi overrides, tag characters)',
  CONFUSABLE_CHARACTERS: 'letters from another script that look like Latin letters',
  INSTRUCTION_LIKE: 'text that reads like instructions to an agent (it is data and is treated as data)',
  // Discovery.
  DUPLICATE: 'a byte-identical copy of another file',
  NEAR_DUPLICATE: 'differs from another file only by BOM or line endings',
  SHADOWED: 'another scope defines the same skill id and takes precedence',
  PLUGIN_REGISTRY_UNREADABLE: 'installed_plugins.json is missing or unreadable: no enabled-list filter applied',
  SETTINGS_UNREADABLE: 'settings.json could not be parsed: enabledPlugins ignored',
  // Cascade (DESIGN.md §4).
  MALFORMED_LINE: 'a skill.index line that is not key: keywords',
  STAMP_MISSING: 'no skill.index.sha256 beside the index: overlay untrusted',
  STAMP_MISMATCH: 'the stamp does not match the index bytes: overlay untrusted',
  BROKEN_DESCENT: 'a descent whose target has no skill.index',
  SUBTREE_ESCAPE: 'a key whose path leaves the root',
  REFERENCE_LOOP: 'a descent onto a node already visited',
  UNREADABLE_NODE: 'a skill.index that cannot be read',
  UNREACHABLE_SKILL: 'a SKILL.md that no index entry leads to',
  DEAD_ENTRY: 'an index entry that leads to no skill',
  AMBIGUOUS_KEYWORDS: 'sibling entries whose keyword sets are so alike that common needs end ambiguous',
  STALE_INDEX: 'a skill.index that build would write differently',
  KEY_UNWRITABLE: 'a folder name that cannot be written as a skill.index key (colon, line break, backslash, leading # or spaces)',
  INDEX_MISSING: 'a cascade root without a skill.index',
  // Substrate (DESIGN.md §5).
  MALFORMED_TABLE: 'an INDEX.md table that cannot be read',
  MALFORMED_ROW: 'a table row with missing cells',
  EXTRA_COLUMNS: 'a table with columns beyond the standard ones',
  MISSING_PATH: 'an index row without a path',
  MISSING_ENTRY: 'an index row whose entry file does not exist',
  ORPHAN_ENTRY: 'an entry file that no index row lists',
  DUPLICATE_ID: 'two rows with one ID',
  MISSING_SUMMARY: 'an entry without a ## Summary section',
  MISSING_INDEX: 'a type folder without INDEX.md',
} as const;

/** A soft problem code. */
export type ProblemCode = keyof typeof PROBLEM_CODES;

/** One bad input, collected rather than thrown. Paths are as the report that carries it says. */
export interface Problem {
  readonly code: ProblemCode;
  readonly path: string;
  readonly line?: number;
  readonly message: string;
}

/** A failure: thrown, carries a stable code, a message naming the file or argument, and details. */
export class SkilldexError extends Error {
  override readonly name = 'SkilldexError';
  readonly code: ErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: ErrorCode,
    message: string,
    details: Readonly<Record<string, unknown>> = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.code = code;
    this.details = details;
  }

  /** The exit code a command returns for this failure. */
  get exitCode(): ExitCode {
    return ERROR_CODES[this.code].exit;
  }

  /** The hint for this failure's code. */
  get hint(): string {
    return ERROR_CODES[this.code].hint;
  }

  /** The plain object form used by `--json` and MCP: `{ code, message, hint, details }`. */
  toJSON(): { code: ErrorCode; message: string; hint: string; details: Readonly<Record<string, unknown>> } {
    return { code: this.code, message: this.message, hint: this.hint, details: this.details };
  }
}

/** True when `err` is a SkilldexError (across module copies too). */
export function isSkilldexError(err: unknown): err is SkilldexError {
  return err instanceof SkilldexError;
}

/** Builds a Problem; a small helper so call sites read as one line. */
export function problem(code: ProblemCode, path: string, message: string, line?: number): Problem {
  return line === undefined ? { code, path, message } : { code, path, line, message };
}
