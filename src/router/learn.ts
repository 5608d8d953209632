/**
 * Learning from use, the operator side (docs/ranking.md §9): `learnExamples` imports usage examples
 * from JSON lines — `{"query", "skill_id"}`, or the `{"id", "query", "relevant": [...]}` lines of
 * `skilldex eval` files (one example per relevant skill) — into the telemetry file beside the
 * catalog; `forgetExamples` removes them. Examples naming a skill the published generation does not
 * serve (or serves archived) are reported and not stored.
 */
import { SkilldexError } from '../errors.js';
import {
  CatalogReader,
  addUsageExamples,
  forgetUsage,
  catalogExists,
  openUsageForWrite,
  servedSkillIds,
  servingRowidOf,
  telemetryPathFor,
  usageCounts,
  type UsageExample,
} from '../catalog/index.js';
import { suggestSkillIdsIn } from './inspect.js';

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
  /** Examples kept per skill after the import (each at most MAX_EXAMPLES_PER_SKILL). */
  readonly per_skill: Readonly<Record<string, number>>;
}

/** What a forget did. */
export interface ForgetReport {
  readonly catalog: string;
  readonly removed: number;
}

/**
 * Parses usage-example lines. INVALID_INPUT_FILE names the first bad line (not JSON, no string
 * `query`, no `skill_id` string nor `relevant` list of strings).
 */
export function parseExampleLines(
  text: string,
  file: string,
): { line: number; example: UsageExample }[] {
  const out: { line: number; example: UsageExample }[] = [];
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
    const o = v as { query?: unknown; skill_id?: unknown; relevant?: unknown };
    if (!v || typeof v !== 'object' || typeof o.query !== 'string' || o.query.trim() === '') {
      throw new SkilldexError(
        'INVALID_INPUT_FILE',
        `${file}:${line}: needs a non-empty string "query"`,
        { file, line },
      );
    }
    if (typeof o.skill_id === 'string') {
      out.push({ line, example: { query: o.query, skill_id: o.skill_id } });
    } else if (
      Array.isArray(o.relevant) &&
      o.relevant.length > 0 &&
      o.relevant.every((r) => typeof r === 'string')
    ) {
      for (const r of o.relevant as string[])
        out.push({ line, example: { query: o.query, skill_id: r } });
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
}): LearnReport {
  const parsed = parseExampleLines(options.text, options.file);
  const reader = openReader(options.catalog);
  const unknown: { line: number; skill_id: string; did_you_mean: string[] }[] = [];
  const keep: UsageExample[] = [];
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
    );
    const counts = usageCounts(db);
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

/** Removes the usage examples of one skill, or all of them. */
export function forgetExamples(options: {
  catalog: string;
  skill_id?: string;
  all?: boolean;
}): ForgetReport {
  if ((options.skill_id === undefined) === (options.all !== true)) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      'say what to forget: --skill ID or --all (one of them)',
      {},
    );
  }
  if (!catalogExists(options.catalog)) {
    throw new SkilldexError('CATALOG_MISSING', `no catalog at ${options.catalog}`, {
      catalog: options.catalog,
    });
  }
  const db = openUsageForWrite(telemetryPathFor(options.catalog));
  try {
    const removed = forgetUsage(
      db,
      options.all === true ? { all: true } : { skill_id: options.skill_id! },
    );
    return { catalog: options.catalog, removed };
  } finally {
    db.close();
  }
}

function openReader(catalog: string): CatalogReader {
  if (!catalogExists(catalog))
    throw new SkilldexError('CATALOG_MISSING', `no catalog at ${catalog}`, { catalog });
  return new CatalogReader(catalog);
}
