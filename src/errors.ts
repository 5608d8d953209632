/**
 * Error model of skilldex: one table of failure codes with their exit codes, when each is raised
 * and a hint (docs/integration.md §4 is generated from it by `npm run docs:errors`), one table of
 * soft problem codes with their meanings, the thrown `SkilldexError` and the collected `Problem`.
 * It imports only secrets.ts (the secret masker every error's message and details pass through):
 * together they are the bottom of the import graph.
 */
import { maskDeep, maskSecrets } from './secrets.js';

/** Process exit codes: 0 ok, 1 ran but found nothing usable, 2 refused, 3 integrity, 70 fault. */
export type ExitCode = 0 | 1 | 2 | 3 | 70;

/** One failure code's entry: its exit code, when it is raised, and what the caller does next. */
export interface ErrorCodeInfo {
  readonly exit: ExitCode;
  /** When the code is raised, in one line (docs/integration.md §4 prints it). */
  readonly when: string;
  /** What the caller does next; carried by every error as `hint`. */
  readonly hint: string;
}

/**
 * Failure codes: the operation cannot answer. Each has the exit code a command returns, one line
 * on when it is raised and a hint that tells the caller what to do next. `npm run docs:errors`
 * writes this table into docs/integration.md §4, and a test fails when the two differ.
 */
export const ERROR_CODES = {
  // Arguments and environment.
  INVALID_ARGUMENT: {
    exit: 2,
    when: 'an argument or option is missing, unknown, of the wrong type or out of range (a fetch field, a limit, an options key)',
    hint: 'check the command line: see --help',
  },
  INVALID_QUERY: {
    exit: 2,
    when: 'a search or substrate query is not a string, has no searchable word (`details.reason`: `stop-words` when every word is one, with its own hint; `no-words`), or is over its length cap',
    hint: 'give a query with at least one letter or digit',
  },
  MISSING_ENV: {
    exit: 2,
    when: '`enrich` has no brief or no evidence target',
    hint: 'set TASK_BRIEF and EVIDENCE_TARGET, or pass --brief and --out',
  },
  PATH_OUTSIDE_ROOT: {
    exit: 2,
    when: 'a given path is absolute, holds a NUL or `..`, or its real path leaves the root it must stay in',
    hint: 'paths must stay inside the given root',
  },
  FILE_NOT_FOUND: {
    exit: 2,
    when: 'a file or folder named by an argument does not exist or cannot be read',
    hint: 'check the path',
  },
  FILE_TOO_LARGE: {
    exit: 2,
    when: 'an input file or standard input is over its size cap (64 MiB for query batches, needs and eval sets)',
    hint: 'the file is over the size cap',
  },
  NOT_A_FILE: {
    exit: 2,
    when: 'an input named by an argument is not a regular file (a folder, a FIFO, a device), or cannot be opened as one; or a SQLite catalog (or its `-wal`, `-shm`, `-journal` or telemetry file) is not a regular file, refused before it is opened',
    hint: 'give a regular file',
  },
  INVALID_INPUT_FILE: {
    exit: 2,
    when: 'a line of an input file (the query file of `eval`) does not follow its format',
    hint: 'fix the named line of the input file',
  },
  BASELINE_INVALID: {
    exit: 2,
    when: 'a `--baseline` file is not a JSON report saved by the same command (`lint --json`, `eval --triggers --json`)',
    hint: 'save the baseline with the same command and --json, then pass that file',
  },
  SUBSTRATE_NOT_FOUND: {
    exit: 2,
    when: 'no substrate root was given and none is found at or above the current folder (up to the repository root, below the home folder), the nearest belongs to another user, or the root is not a folder',
    hint: 'pass --root DIR or run inside a project with a substrate/ folder',
  },
  CONFIG_INVALID: {
    exit: 2,
    when: 'a config file is not valid TOML or JSON, or a key of it has an unknown name or a value of the wrong type',
    hint: 'fix the named key of the config file (see skilldex config --help)',
  },
  FILE_EXISTS: {
    exit: 2,
    when: "`init` would replace a file of the user's that differs from what it writes",
    hint: "the file is the user's: pass --force to replace it, or merge by hand",
  },
  CLIENT_CONFIG_INVALID: {
    exit: 2,
    when: "`init` or `init --undo` found a file it edits (a client's MCP config, the user config, its own record) that does not parse, has comments, or has a shape it cannot merge into (a value of another type, an inline table); the file is left untouched",
    hint: 'fix that file as the message says, or add the entry by hand as the message shows; skilldex changed nothing in it',
  },
  // Catalog.
  CATALOG_MISSING: {
    exit: 2,
    when: 'no catalog file at the path (or it vanished under a reader), or an empty PostgreSQL database or schema',
    hint: 'create one with: skilldex index --catalog FILE --scope DIR, or set everything up with: skilldex init',
  },
  CATALOG_EMPTY: {
    exit: 2,
    when: 'the catalog has never been published, or a search found its published generation holding no skill',
    hint: 'add skills: skilldex index --scope DIR (or set library.scopes in the config, or run skilldex init --library DIR), then search again',
  },
  HOOK_INPUT_INVALID: {
    exit: 2,
    when: "a prompt hook's standard input is not the host's event object: not JSON, not an object, no `prompt` string, another event (`details.key` names the field)",
    hint: 'register the hook for the UserPromptSubmit event (skilldex init --client claude-code does), or use skilldex hook generic for plain text',
  },
  HOOK_DEADLINE: {
    exit: 1,
    when: 'a prompt hook passed its deadline (--deadline-ms, default 1000) before it had an answer; it printed nothing',
    hint: 'see skilldex hook --help: raise --deadline-ms, or check the catalog is local and not busy (bench:hook has the usual times)',
  },
  NO_SKILLS_FOUND: {
    exit: 2,
    when: '`index` found no skill in the scopes it read and the catalog has no published generation yet: an empty first generation is not published',
    hint: 'point index at your skills: skilldex index --scope DIR (or set library.scopes in the config, or run skilldex init --library DIR)',
  },
  CATALOG_CORRUPT: {
    exit: 3,
    when: 'the file is not a skilldex catalog, has damaged pages (SQLite `SQLITE_CORRUPT`, `SQLITE_NOTADB`) or is zero bytes; or a PostgreSQL schema holds tables that are not a catalog',
    hint: 'the catalog file is damaged or not a skilldex catalog: rebuild it with skilldex index',
  },
  NATIVE_MODULE_UNAVAILABLE: {
    exit: 3,
    when: 'the native addon of `better-sqlite3` (SQLite) cannot be loaded: missing (an unfinished `npm ci`), built for another Node.js, or damaged; the catalog file was not opened',
    hint: "skilldex's installation is incomplete, not the catalog: run npm ci (or npm rebuild better-sqlite3) where skilldex is installed; keep the catalog",
  },
  CATALOG_TOO_NEW: {
    exit: 2,
    when: "the catalog's schema version or ranking policy is newer than this skilldex knows",
    hint: 'the catalog was written by a newer skilldex: upgrade',
  },
  CATALOG_ROLLBACK: {
    exit: 3,
    when: 'a long-running reader saw the published sequence go backwards (an older catalog file restored over a newer one)',
    hint: 'an older catalog replaced a newer one under a running reader: restart the reader or re-index',
  },
  CATALOG_BUSY: {
    exit: 2,
    when: 'an operator command found another process holding the write lock past 5 s, or `index` saw another process publish while it read the files (3 attempts)',
    hint: 'another skilldex process is writing this catalog: try again when it ends',
  },
  CATALOG_UNAVAILABLE: {
    exit: 3,
    when: 'a PostgreSQL catalog cannot be reached (connection refused or lost, the server shutting down, authentication failed) or its driver `pg-native` is not installed',
    hint: 'check that the database is up and the URL, user and password are right; a server retries with backoff on its own',
  },
  REINDEX_REQUIRED: {
    exit: 2,
    when: 'a publish or rollback under a policy whose terms the catalog has not read from the files yet (bm25f.v4 reads each body by lines); a search under a policy of another family than the data the catalog keeps (a v1 search of a bm25f catalog, or the reverse); or a search, status or MCP read of a catalog published under a retired policy (hybrid-lexical.v2, bm25f.v3: the hint gives the command)',
    hint: 'run skilldex index --policy ID, which reads every file once for that policy',
  },
  POLICY_RETIRED: {
    exit: 2,
    when: '`index` or `publish` asked for a retired ranking policy (`--policy` tf.skillrouter.hybrid-lexical.v2 or tf.skillrouter.bm25f.v3); the message names the live policies',
    hint: 'use a live policy: tf.skillrouter.bm25f.v5 (the default), tf.skillrouter.bm25f.v4 or tf.skillrouter.hybrid-lexical.v1',
  },
  CATALOG_SHRINK: {
    exit: 2,
    when: '`index` would retire more than half of the active skills (a mistyped or emptied scope) without `--allow-shrink`',
    hint: 'check the --scope paths; pass --allow-shrink if the skills really are gone',
  },
  GENERATION_NOT_FOUND: {
    exit: 2,
    when: '`rollback` or `diff` names a generation (sequence number or id prefix) the catalog never published, or there is none before the one compared',
    hint: 'see skilldex generations for the sequence numbers and ids',
  },
  ROUTER_SKILL_MISSING: {
    exit: 2,
    when: "`listing --apply` would take skills out of a host's listing while the skilldex router skill is not among that host's skills",
    hint: 'install it first (skilldex init --client claude-code or codex), or pass --force',
  },
  MCP_SERVER_MISSING: {
    exit: 2,
    when: "`listing --apply` would take skills out of a host's listing (Claude Code `--control user-invocable-only`, Codex) while no skilldex MCP server is registered in the host's own config: the router's `skill_fetch` would not exist there",
    hint: 'register the server first (the message names the command: claude mcp add … for Claude Code, skilldex init --client codex --yes for Codex), or for Claude Code use --control name-only',
  },
  EXAMPLE_NOT_FOUND: {
    exit: 1,
    when: '`forget --example ID` names a usage example no row has (never stored, or already forgotten)',
    hint: 'see skilldex usage list for the example ids',
  },
  REVISION_NOT_FOUND: {
    exit: 2,
    when: '`diff` names a revision (id or hex prefix) the catalog never saw for that skill',
    hint: 'see skilldex show SKILL_ID for the revisions the catalog has seen',
  },
  // Lock files (docs/supply-chain.md).
  LOCK_INVALID: {
    exit: 2,
    when: '`verify` or `index --locked` read a lock file that is not one of the formats skilldex reads (skills.lock.json, skills-lock.json, apm.lock.yaml), or holds a malformed entry',
    hint: 'check the lock file named; make a new one with skilldex lock',
  },
  LOCK_MISMATCH: {
    exit: 3,
    when: '`index --locked` found skills that differ from the lock file (changed, added, removed or moved): nothing was published',
    hint: 'run skilldex verify --lock FILE to see what changed; after review, update the lock with skilldex lock',
  },
  // The fetch contract (docs/integration.md §3).
  CATALOG_GENERATION_MISMATCH: {
    exit: 3,
    when: "the generation is not the published one (an operator re-indexed or changed a skill's state)",
    hint: 'search again: the catalog has a new published generation',
  },
  REVISION_MISMATCH: {
    exit: 3,
    when: "the catalog's revision for that id is not `expected_revision`",
    hint: 'search again; never fetch unpinned',
  },
  INDEX_DRIFT: {
    exit: 3,
    when: 'the file on disk is missing or no longer hashes to the revision (a supporting file: to the digest recorded at index time)',
    hint: 'the file changed or vanished since indexing: re-index',
  },
  SKILL_NOT_FOUND: {
    exit: 3,
    when: 'the id is not in this generation (for `deprecate`, `archive`, `restore`: not in the catalog); from `fetch`, `show` and the explorer, `details.did_you_mean` lists the closest ids',
    hint: 'search again: the id is not in this generation',
  },
  SKILL_ARCHIVED: {
    exit: 3,
    when: 'the skill was archived',
    hint: 'the skill is archived: search for another, or restore it',
  },
  // Output.
  OUTPUT_CLOSED: {
    exit: 2,
    when: 'standard output could not take the rest of the output (ENOBUFS, a stream already ended); a closed pipe (EPIPE) is not an error: the run ends silently with exit 0',
    hint: 'the reader of standard output went away before the output ended',
  },
  // Writes.
  WRITE_FAILED: {
    exit: 2,
    when: 'a file could not be written (a read-only folder, a folder where a file goes)',
    hint: 'check that the folder is writable and that no folder stands where a file goes',
  },
  // The explorer's HTTP face (skilldex serve).
  ROUTE_NOT_FOUND: {
    exit: 1,
    when: 'an explorer request names a route skilldex serve does not answer (HTTP 404)',
    hint: 'see docs/explorer.md for the routes skilldex serve answers',
  },
  METHOD_NOT_ALLOWED: {
    exit: 2,
    when: 'an explorer request uses a method other than GET or HEAD (HTTP 405)',
    hint: 'the explorer is read-only: use GET (or HEAD)',
  },
  FORBIDDEN_ORIGIN: {
    exit: 2,
    when: 'an HTTP request names a foreign Host or Origin, or comes cross-site (HTTP 403)',
    hint: 'open the page at the address skilldex serve printed; other hosts and sites are refused',
  },
  UNAUTHORIZED: {
    exit: 2,
    when: 'an HTTP request lacks the bearer token the server was started with, or carries a wrong one (HTTP 401)',
    hint: 'send Authorization: Bearer <token>, or open the URL with #token= that skilldex serve printed',
  },
  PORT_IN_USE: {
    exit: 2,
    when: "`mcp --http` or `serve` cannot listen: another process holds the port on that address; or the hook server's socket path holds something that is not a hook server",
    hint: 'stop the other process, or pick another port (--http PORT, --port PORT; 0 takes any free port); for the hook server, remove the file its message names',
  },
  UNSAFE_PERMISSIONS: {
    exit: 2,
    when: "a token file may be read or written by its group or others, or belongs to another user; or the hook server's folder is not private to the user (details.file)",
    hint: 'make the file yours and private: chmod 600 FILE (a folder: chmod 700 FOLDER)',
  },
  NOT_CONFIGURED: {
    exit: 2,
    when: 'an explorer cascade or substrate view was asked for but the server was started without one',
    hint: 'start skilldex serve with --cascade-root DIR or --substrate DIR',
  },
  // Internal.
  INTERNAL: {
    exit: 70,
    when: 'an internal fault: a bug in skilldex',
    hint: 'this is a bug in skilldex: please report it with the command you ran',
  },
} as const satisfies Record<string, ErrorCodeInfo>;

/** A failure code. */
export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * Problem codes: one input was bad, the run goes on. Collected into reports (skipped files,
 * warnings, crawl inconsistencies); each value says what the problem means.
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
  FILE_SWAPPED:
    'the file opened is not the one the walk found (replaced, or a folder on its path swapped for a link)',
  // SKILL.md frontmatter (skips).
  FRONTMATTER_MISSING: 'the file does not start with a --- fence',
  FRONTMATTER_UNCLOSED: 'the opening --- fence is never closed',
  MALFORMED_FRONTMATTER:
    'the YAML between the fences does not parse (a key given twice, a quote never closed, …), or is not a mapping',
  FRONTMATTER_TOO_LARGE:
    'the frontmatter, its parsed value (aliases expanded), or its keywords or tags are over their caps',
  MISSING_NAME: 'no usable name field',
  MISSING_DESCRIPTION: 'no usable description field',
  // SKILL.md spec warnings (the skill is still indexed).
  NAME_FROM_FOLDER:
    'the frontmatter has no name field; the folder name is the name, as Claude Code names such skills',
  FRONTMATTER_LENIENT:
    'strict YAML refuses a value (an unquoted `: `, ` #`, tab or reserved first character); it was read as the whole line, as hosts read it: quote the value',
  NAME_INVALID: 'name is not 1-64 chars of [a-z0-9-] without leading, trailing or double hyphens',
  NAME_FOLDER_MISMATCH: 'name differs from its folder name',
  DESCRIPTION_TOO_LONG: 'description is over 1024 characters',
  VERSION_INVALID:
    'version is not one short line (at most 64 characters, no line breaks or control characters)',
  FIELD_TYPE: 'a known field has the wrong type',
  UNKNOWN_FIELD: 'a frontmatter field outside the spec and the known extensions',
  HIDDEN_CHARACTERS:
    'invisible or bidi-control characters (zero-width, bidi overrides, tag characters)',
  CONFUSABLE_CHARACTERS: 'letters from another script that look like Latin letters',
  INSTRUCTION_LIKE:
    'text that reads like instructions to an agent (it is data and is treated as data)',
  // Discovery.
  DUPLICATE: 'a byte-identical copy of another file',
  NEAR_DUPLICATE: 'differs from another file only by BOM or line endings',
  SHADOWED: 'another scope defines the same skill id and takes precedence',
  PLUGIN_REGISTRY_UNREADABLE:
    'installed_plugins.json is missing or unreadable: no enabled-list filter applied',
  SETTINGS_UNREADABLE: 'settings.json could not be parsed: enabledPlugins ignored',
  HOST_SETTINGS_UNREADABLE:
    'a host settings file (Claude Code settings or ~/.claude.json, Codex config.toml, agents/openai.yaml) could not be read: its listing controls are ignored',
  // Config.
  PROJECT_CONFIG_IGNORED:
    'a key of a project config that a project may not set (a database URL, a path outside the project, a bind address, telemetry on against the user config) was not applied; or the whole file, when another user owns it',
  // Cascade (docs/cascade.md).
  MALFORMED_LINE: 'a skill.index line that is not key: keywords',
  STAMP_MISSING: 'no skill.index.sha256 beside the index: overlay untrusted',
  STAMP_MISMATCH: 'the stamp does not match the index bytes: overlay untrusted',
  BROKEN_DESCENT: 'a descent whose target has no skill.index',
  SUBTREE_ESCAPE: 'a key whose path leaves the root',
  REFERENCE_LOOP: 'a descent onto a node already visited',
  UNREADABLE_NODE: 'a skill.index that cannot be read',
  UNREACHABLE_SKILL: 'a SKILL.md that no index entry leads to',
  DEAD_ENTRY: 'an index entry that leads to no skill',
  AMBIGUOUS_KEYWORDS:
    'sibling entries whose keyword sets are so alike that common needs end ambiguous',
  STALE_INDEX: 'a skill.index that build would write differently',
  KEY_UNWRITABLE:
    'a folder name that cannot be written as a skill.index key (colon, line break, backslash, leading # or spaces)',
  INDEX_MISSING: 'a cascade root without a skill.index',
  // Substrate (docs/substrate.md).
  MALFORMED_TABLE: 'an INDEX.md table that cannot be read',
  MALFORMED_ROW: 'a table row with missing cells',
  EXTRA_COLUMNS: 'a table with columns beyond the standard ones',
  MISSING_PATH: 'an index row without a path',
  MISSING_ENTRY: 'an index row whose entry file does not exist',
  ORPHAN_ENTRY: 'an entry file that no index row lists',
  DUPLICATE_ID: 'two rows with one ID',
  MISSING_SUMMARY: 'an entry without a ## Summary section',
  MISSING_INDEX: 'a type folder without INDEX.md',
  // Trigger evaluations (docs/triggers.md).
  TRIGGER_EVAL_INVALID:
    'a trigger-eval file or item that does not follow its format (not JSON, no query text, no boolean label)',
  TRIGGER_EVAL_UNKNOWN_SKILL: 'a trigger case names a skill the library does not have',
  TRIGGER_EVAL_UNATTRIBUTED:
    'a trigger-eval file that names no skill and sits where no single skill owns it',
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
  // A hint for this one failure, when the code's general hint would not help (see `hint`).
  private readonly ownHint: string | undefined;

  /**
   * `options.hint` replaces the code's hint for this failure, where the situation is narrower than
   * the code (a missing fetch field over MCP, a query of stop-words only); `options.cause` keeps
   * the underlying error.
   */
  constructor(
    code: ErrorCode,
    message: string,
    details: Readonly<Record<string, unknown>> = {},
    options?: ErrorOptions & { readonly hint?: string },
  ) {
    // A catalog URL or connection string in a message or a detail never carries its password out.
    super(
      maskSecrets(message),
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = code;
    this.details = maskDeep(details);
    this.ownHint = options?.hint;
  }

  /** The exit code a command returns for this failure. */
  get exitCode(): ExitCode {
    return ERROR_CODES[this.code].exit;
  }

  /** What to do next: this failure's own hint when it was given one, else its code's. */
  get hint(): string {
    return this.ownHint ?? ERROR_CODES[this.code].hint;
  }

  /** The plain object form used by `--json` and MCP: `{ code, message, hint, details }`. */
  toJSON(): {
    code: ErrorCode;
    message: string;
    hint: string;
    details: Readonly<Record<string, unknown>>;
  } {
    return { code: this.code, message: this.message, hint: this.hint, details: this.details };
  }
}

/** True when `err` is a SkilldexError of this copy of skilldex (an `instanceof` check). */
export function isSkilldexError(err: unknown): err is SkilldexError {
  return err instanceof SkilldexError;
}

/** Builds a Problem; a small helper so call sites read as one line. */
export function problem(code: ProblemCode, path: string, message: string, line?: number): Problem {
  return line === undefined ? { code, path, message } : { code, path, line, message };
}

/**
 * Refuses an options object with a key outside `allowed`: INVALID_ARGUMENT naming `where` (the
 * entry point, e.g. `discoverSkills`) and the first unknown key, so a misspelt option never passes
 * silently. `undefined` is no options; anything else that is not a plain object is refused too.
 * Every public entry point that takes an options object calls this first.
 */
export function assertKnownOptions(
  options: unknown,
  allowed: readonly string[],
  where: string,
): void {
  if (options === undefined) return;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new SkilldexError('INVALID_ARGUMENT', `${where}: options must be an object`, { where });
  }
  for (const key of Object.keys(options)) {
    if (!allowed.includes(key)) {
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `${where}: unknown option ${JSON.stringify(key)} (known: ${allowed.join(', ')})`,
        {
          where,
          option: key,
          allowed,
        },
      );
    }
  }
}

/**
 * The keys of the options type `T`, checked complete at compile time: `optionKeys<Opts>()('a', 'b')`
 * fails to compile when `Opts` has a key not listed (or a listed key it lacks), so the list that
 * `assertKnownOptions` checks against cannot fall behind the type. The list keeps its keys' literal
 * types, so the list of a wider options type can spread it: `optionKeys<Wider>()(...NARROW_KEYS, 'c')`.
 */
export function optionKeys<T extends object>() {
  return <const K extends readonly (keyof T & string)[]>(
    ...keys: K &
      (Exclude<keyof T, K[number]> extends never
        ? unknown
        : { missing: Exclude<keyof T, K[number]> })
  ): readonly K[number][] => Object.freeze([...keys]);
}

/** SQLite result codes (better-sqlite3 `err.code`) that mean the catalog file is damaged or foreign. */
const CORRUPT_SQLITE = /^SQLITE_(CORRUPT|NOTADB|FORMAT|CANTOPEN|IOERR_SHORT_READ)/;

/**
 * A foreign failure (SQLite, the file system, the output pipe) as a coded SkilldexError, or
 * undefined when it is not one we recognise (a bug: the caller reports INTERNAL). `what` names the
 * file or stream involved, for the message.
 */
export function codedFromForeign(err: unknown, what = ''): SkilldexError | undefined {
  if (err instanceof SkilldexError) return err;
  if (!err || typeof err !== 'object' || !('code' in err) || typeof err.code !== 'string')
    return undefined;
  const code = err.code;
  const message = err instanceof Error ? err.message : String(code);
  const about = what === '' ? '' : `${what}: `;
  const options = { cause: err };
  // better-sqlite3 missing, or its addon unloadable (an unfinished npm ci): the install, not the
  // catalog (issue 36 R3; catalog/db.ts codes the addon's own load failure the same way).
  if (
    (code === 'ERR_MODULE_NOT_FOUND' ||
      code === 'MODULE_NOT_FOUND' ||
      code === 'ERR_DLOPEN_FAILED') &&
    /better[-_]sqlite3/.test(message)
  ) {
    return new SkilldexError(
      'NATIVE_MODULE_UNAVAILABLE',
      `${about}the SQLite module better-sqlite3 cannot be loaded (${message.split('\n')[0]}); run npm ci where skilldex is installed`,
      { package: 'better-sqlite3', errno: code },
      options,
    );
  }
  if (CORRUPT_SQLITE.test(code)) {
    return new SkilldexError(
      'CATALOG_CORRUPT',
      `${about}the catalog is damaged or not a skilldex catalog (${code}: ${message})`,
      { sqlite: code },
      options,
    );
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new SkilldexError(
      'CATALOG_BUSY',
      `${about}the catalog is locked by another process (${code})`,
      { sqlite: code },
      options,
    );
  }
  if (
    code === 'SQLITE_FULL' ||
    code === 'ENOSPC' ||
    code === 'EDQUOT' ||
    code === 'SQLITE_READONLY' ||
    code.startsWith('SQLITE_IOERR')
  ) {
    return new SkilldexError(
      'WRITE_FAILED',
      `${about}${code}: ${message}`,
      { errno: code },
      options,
    );
  }
  if (
    code === 'EPIPE' ||
    code === 'ENOBUFS' ||
    code === 'ERR_STREAM_DESTROYED' ||
    code === 'ERR_STREAM_WRITE_AFTER_END'
  ) {
    return new SkilldexError(
      'OUTPUT_CLOSED',
      `${about}standard output closed (${code})`,
      { errno: code },
      options,
    );
  }
  if (code === 'ENOENT')
    return new SkilldexError('FILE_NOT_FOUND', `${about}${message}`, { errno: code }, options);
  if (
    code === 'EACCES' ||
    code === 'EPERM' ||
    code === 'EISDIR' ||
    code === 'ENOTDIR' ||
    code === 'ELOOP' ||
    code === 'ENAMETOOLONG'
  ) {
    return new SkilldexError('NOT_A_FILE', `${about}${code}: ${message}`, { errno: code }, options);
  }
  return undefined;
}
