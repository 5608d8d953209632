/**
 * Learning from use, the operator side (docs/ranking.md §9): `learnExamples` imports usage examples
 * from JSON lines — `{"query", "skill_id"}`, or the `{"id", "query", "relevant": [...]}` lines of
 * `skilldex eval` files (one example per relevant skill), each negative with `"should_trigger":
 * false` (issue 34: it may only lower its skill) — into the telemetry file beside the catalog as
 * `import` examples; `listExamples` shows every example with its source, sessions and
 * weight; `forgetExamples` removes one example, one skill's, or all. Examples naming a skill the
 * published generation does not serve (or serves archived) are reported and not stored. Host
 * transcripts are imported by learn-host.ts.
 */
import { SkilldexError, assertKnownOptions, optionKeys } from '../../errors.js';
import {
  CatalogReader,
  EXAMPLE_SOURCES,
  addUsageExamples,
  purgePromptData,
  forgetUsage,
  listUsage,
  catalogExists,
  openUsageForWrite,
  servedSkillIds,
  servingRowidOf,
  telemetryPathFor,
  usageCounts,
  type ExampleSource,
  type NewUsageExample,
  type UsageExampleDetail,
} from '../../catalog/index.js';
import { suggestSkillIdsIn } from '../served/inspect.js';

/** What an import did. */
export interface LearnReport {
  readonly catalog: string;
  readonly telemetry: string;
  /** Examples stored. */
  readonly added: number;
  /** Lines read (blank lines excepted). */
  readonly lines: number;
  /**
   * Examples skipped because their skill is not served (or is archived), with the line and the
   * closest served ids ("did you mean", at most 3, maybe none).
   */
  readonly unknown: readonly {
    readonly line: number;
    readonly skill_id: string;
    readonly did_you_mean: readonly string[];
  }[];
  /** Imported examples kept per skill after the import (each at most MAX_EXAMPLES_PER_SKILL). */
  readonly per_skill: Readonly<Record<string, number>>;
}

/** What a forget did. */
export interface ForgetReport {
  readonly catalog: string;
  /** Rows removed (a fetch example has one per client and session that recorded it). */
  readonly removed: number;
  /**
   * With `purge`: the telemetry events removed too (query hashes, fetch contexts), the store
   * rebuilt so no deleted text stays in the file (issue 36 P1). Absent without `purge`.
   */
  readonly purged?: { readonly events: number };
}

/** The usage examples of a catalog, as `skilldex usage list` shows them. */
export interface UsageListReport {
  readonly catalog: string;
  readonly telemetry: string;
  /** Examples per source over the whole list (before `limit`). */
  readonly counts: Readonly<Record<ExampleSource, number>>;
  readonly total: number;
  readonly examples: readonly UsageExampleDetail[];
}

/**
 * Parses usage-example lines. INVALID_INPUT_FILE names the first bad line (not JSON, no string
 * `query`, no `skill_id` string nor `relevant` list of strings).
 */
export function parseExampleLines(
  text: string,
  file: string,
): { line: number; example: NewUsageExample }[] {
  const out: { line: number; example: NewUsageExample }[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch {
      throw new SkilldexError('INVALID_INPUT_FILE', `${file}:${line}: not a JSON object`, {
        file,
        line,
      });
    }
    const o = v as {
      query?: unknown;
      skill_id?: unknown;
      relevant?: unknown;
      should_trigger?: unknown;
    };
    if (!v || typeof v !== 'object' || typeof o.query !== 'string' || o.query.trim() === '') {
      throw new SkilldexError(
        'INVALID_INPUT_FILE',
        `${file}:${line}: needs a non-empty string "query"`,
        { file, line },
      );
    }
    // issue 34 item 1: `"should_trigger": false` makes a negative example (it may only lower its skill).
    if (o.should_trigger !== undefined && typeof o.should_trigger !== 'boolean')
      throw new SkilldexError(
        'INVALID_INPUT_FILE',
        `${file}:${line}: "should_trigger" must be true or false`,
        { file, line },
      );
    const polarity = o.should_trigger === false ? ('negative' as const) : undefined;
    if (typeof o.skill_id === 'string') {
      out.push({
        line,
        example: { query: o.query, skill_id: o.skill_id, ...(polarity && { polarity }) },
      });
    } else if (
      Array.isArray(o.relevant) &&
      o.relevant.length > 0 &&
      o.relevant.every((r) => typeof r === 'string')
    ) {
      for (const r of o.relevant as string[])
        out.push({ line, example: { query: o.query, skill_id: r, ...(polarity && { polarity }) } });
    } else {
      throw new SkilldexError(
        'INVALID_INPUT_FILE',
        `${file}:${line}: needs a string "skill_id" or a "relevant" list of skill ids`,
        { file, line },
      );
    }
  });
  return out;
}

/** Imports usage examples into the catalog's telemetry file. */
export function learnExamples(options: {
  catalog: string;
  text: string;
  file: string;
  now?: () => Date;
  /** Days a usage example is kept (default DEFAULT_USAGE_RETENTION_DAYS). */
  retentionDays?: number;
}): LearnReport {
  assertKnownOptions(options, LEARN_EXAMPLES_OPTION_KEYS, 'learnExamples');
  const parsed = parseExampleLines(options.text, options.file);
  const reader = openReader(options.catalog);
  const unknown: { line: number; skill_id: string; did_you_mean: string[] }[] = [];
  const keep: NewUsageExample[] = [];
  try {
    reader.read(() => {
      let served: string[] | undefined;
      for (const p of parsed) {
        const r = servingRowidOf(reader, p.example.skill_id);
        if (r && r.state !== 'archived') keep.push(p.example);
        else {
          served ??= servedSkillIds(reader);
          const near = suggestSkillIdsIn(reader, p.example.skill_id, 3, served);
          unknown.push({ line: p.line, skill_id: p.example.skill_id, did_you_mean: near });
        }
      }
    });
  } finally {
    reader.close();
  }
  const telemetry = telemetryPathFor(options.catalog);
  const db = openUsageForWrite(telemetry);
  try {
    const added = addUsageExamples(
      db,
      keep,
      'import',
      (options.now ?? (() => new Date()))().toISOString(),
      {},
      options.retentionDays,
    );
    const counts = usageCounts(db, 'import');
    const per: Record<string, number> = {};
    for (const id of [...new Set(keep.map((e) => e.skill_id))].sort())
      per[id] = counts.get(id) ?? 0;
    return {
      catalog: options.catalog,
      telemetry,
      added,
      lines: new Set(parsed.map((p) => p.line)).size,
      unknown,
      per_skill: per,
    };
  } finally {
    db.close();
  }
}

/** Parses an example source name; INVALID_ARGUMENT names the known ones. */
export function checkExampleSource(source: string, option = '--source'): ExampleSource {
  if ((EXAMPLE_SOURCES as readonly string[]).includes(source)) return source as ExampleSource;
  throw new SkilldexError(
    'INVALID_ARGUMENT',
    `${option} ${JSON.stringify(source)}: an example source is one of ${EXAMPLE_SOURCES.join(', ')}`,
    { option, value: source, known: EXAMPLE_SOURCES },
  );
}

/**
 * Removes usage examples: one example (`example`, its id from `usage list`: every row of it), the
 * examples of one skill (optionally of one `source`), or all of them. EXAMPLE_NOT_FOUND for an
 * example id no row has.
 */
export function forgetExamples(options: {
  catalog: string;
  skill_id?: string;
  source?: ExampleSource;
  example?: number;
  all?: boolean;
  /** With `all` only: remove the telemetry events too and rebuild the store (purgePromptData). */
  purge?: boolean;
}): ForgetReport {
  assertKnownOptions(options, FORGET_EXAMPLES_OPTION_KEYS, 'forgetExamples');
  const targets = [
    options.skill_id !== undefined,
    options.all === true,
    options.example !== undefined,
  ];
  if (targets.filter(Boolean).length !== 1) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      'say what to forget: --example ID, --skill ID or --all (one of them)',
      {},
    );
  }
  if (options.source !== undefined && options.skill_id === undefined) {
    throw new SkilldexError('INVALID_ARGUMENT', '--source goes with --skill ID', {
      option: '--source',
    });
  }
  if (options.purge === true && options.all !== true) {
    throw new SkilldexError('INVALID_ARGUMENT', '--purge goes with --all', {
      option: '--purge',
    });
  }
  if (!catalogExists(options.catalog)) {
    throw new SkilldexError('CATALOG_MISSING', `no catalog at ${options.catalog}`, {
      catalog: options.catalog,
    });
  }
  const db = openUsageForWrite(telemetryPathFor(options.catalog));
  try {
    if (options.purge === true) {
      const p = purgePromptData(db);
      return { catalog: options.catalog, removed: p.examples, purged: { events: p.events } };
    }
    const removed = forgetUsage(
      db,
      options.all === true
        ? { all: true }
        : options.example !== undefined
          ? { example: options.example }
          : { skill_id: options.skill_id!, ...(options.source ? { source: options.source } : {}) },
    );
    if (options.example !== undefined && removed === 0) {
      throw new SkilldexError(
        'EXAMPLE_NOT_FOUND',
        `no usage example ${options.example} in ${telemetryPathFor(options.catalog)}`,
        { example: options.example },
      );
    }
    return { catalog: options.catalog, removed };
  } finally {
    db.close();
  }
}

/** Most examples `listExamples` returns by default. */
export const DEFAULT_USAGE_LIST_LIMIT = 1_000;

/**
 * The usage examples of a catalog with their source, sessions, clients and weight, in (skill_id,
 * id) order, filtered by skill and source, at most `limit` (default DEFAULT_USAGE_LIST_LIMIT).
 */
export function listExamples(options: {
  catalog: string;
  skill_id?: string;
  source?: ExampleSource;
  limit?: number;
}): UsageListReport {
  assertKnownOptions(options, LIST_EXAMPLES_OPTION_KEYS, 'listExamples');
  if (!catalogExists(options.catalog)) {
    throw new SkilldexError('CATALOG_MISSING', `no catalog at ${options.catalog}`, {
      catalog: options.catalog,
    });
  }
  const telemetry = telemetryPathFor(options.catalog);
  const all = listUsage(telemetry, {
    ...(options.skill_id !== undefined ? { skill_id: options.skill_id } : {}),
    ...(options.source !== undefined ? { source: options.source } : {}),
  });
  return {
    catalog: options.catalog,
    telemetry,
    counts: countBySource(all),
    total: all.length,
    examples: all.slice(0, options.limit ?? DEFAULT_USAGE_LIST_LIMIT),
  };
}

/** Examples per source of one skill (what `show` prints); zeros when none or no telemetry file. */
export function exampleCountsOf(catalog: string, skillId: string): Record<ExampleSource, number> {
  return countBySource(listUsage(telemetryPathFor(catalog), { skill_id: skillId }));
}

function countBySource(examples: readonly UsageExampleDetail[]): Record<ExampleSource, number> {
  const out: Record<ExampleSource, number> = { import: 0, host: 0, fetch: 0, author: 0 };
  for (const e of examples) out[e.source]++;
  return out;
}

function openReader(catalog: string): CatalogReader {
  if (!catalogExists(catalog))
    throw new SkilldexError('CATALOG_MISSING', `no catalog at ${catalog}`, { catalog });
  return new CatalogReader(catalog);
}

/** The keys `forgetExamples` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const FORGET_EXAMPLES_OPTION_KEYS = optionKeys<NonNullable<Parameters<typeof forgetExamples>[0]>>()(
  'catalog',
  'skill_id',
  'source',
  'example',
  'all',
  'purge',
);

/** The keys `learnExamples` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const LEARN_EXAMPLES_OPTION_KEYS = optionKeys<NonNullable<Parameters<typeof learnExamples>[0]>>()(
  'catalog',
  'text',
  'file',
  'now',
  'retentionDays',
);

/** The keys `listExamples` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const LIST_EXAMPLES_OPTION_KEYS = optionKeys<NonNullable<Parameters<typeof listExamples>[0]>>()(
  'catalog',
  'skill_id',
  'source',
  'limit',
);
