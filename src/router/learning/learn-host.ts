/**
 * `skilldex learn --from <host> [DIR]` (docs/ranking.md §9): the skills a host activated, each with
 * the user prompt before it, become `host` usage examples. The transcripts are read by src/hosts
 * (bounded, confined to DIR); an activation is stored once (keyed on its transcript record), only
 * for a skill the published generation serves (not archived), with nothing but the prompt (at most
 * 1,000 characters), the skill id, the session and the time.
 */
import { SkilldexError, type Problem, assertKnownOptions, optionKeys } from '../../errors.js';
import {
  CatalogReader,
  DEFAULT_USAGE_RETENTION_DAYS,
  addUsageExamples,
  retentionCutoff,
  catalogExists,
  openUsageForWrite,
  servingRowidOf,
  telemetryPathFor,
  usageCounts,
  type NewUsageExample,
} from '../../catalog/index.js';
import {
  defaultTranscriptDir,
  readTranscripts,
  type Activation,
  type TranscriptHost,
} from '../../hosts/index.js';

/** Hosts `learn --from` reads. */
export const LEARN_HOSTS: readonly TranscriptHost[] = ['claude-code', 'codex'];

/** Most unknown skill names a report lists (the most frequent). */
export const MAX_UNKNOWN_LISTED = 20;
/** Most skipped files a report lists (`skipped_total` has the full count). */
export const MAX_SKIPPED_LISTED = 20;

/** What a host import did. */
export interface HostLearnReport {
  readonly catalog: string;
  readonly telemetry: string;
  readonly host: TranscriptHost;
  readonly dir: string;
  readonly since: string | null;
  readonly files_read: number;
  readonly files_older: number;
  /** Activations of served skills found in the transcripts. */
  readonly activations: number;
  /** Of those, stored now (the others were stored by an earlier run). */
  readonly added: number;
  readonly already_learned: number;
  /**
   * Of the activations, how many are older than the retention of usage examples (not stored:
   * `usage_retention_days` of the user config, default DEFAULT_USAGE_RETENTION_DAYS).
   */
  readonly older_than_retention: number;
  /** Names the host used that the catalog does not serve (built-in commands, other skills), most frequent first. */
  readonly unknown_skills: readonly { readonly skill: string; readonly count: number }[];
  readonly without_prompt: number;
  readonly malformed_lines: number;
  readonly truncated_files: number;
  readonly skipped: readonly Problem[];
  readonly skipped_total: number;
  /** True when a run bound was reached (run again with --since to take the rest). */
  readonly capped: boolean;
  /** Host examples kept per skill touched after the import. */
  readonly per_skill: Readonly<Record<string, number>>;
}

/** Options of learnFromHost. */
export interface HostLearnOptions {
  readonly catalog: string;
  readonly host: string;
  /** Transcript folder (default: the host's own under `home`). */
  readonly dir?: string;
  /** Home folder for the default transcript folder (default $HOME). */
  readonly home?: string;
  /** Only activations at or after this time. */
  readonly since?: Date;
  readonly now?: () => Date;
  /** Days a usage example is kept (default DEFAULT_USAGE_RETENTION_DAYS): older activations are not stored. */
  readonly retentionDays?: number;
}

/** Parses a host name; INVALID_ARGUMENT names the known ones. */
export function checkLearnHost(host: string): TranscriptHost {
  if ((LEARN_HOSTS as readonly string[]).includes(host)) return host as TranscriptHost;
  throw new SkilldexError(
    'INVALID_ARGUMENT',
    `--from ${JSON.stringify(host)}: skilldex reads the transcripts of ${LEARN_HOSTS.join(', ')}`,
    { option: '--from', value: host, known: LEARN_HOSTS },
  );
}

/** Imports the skill activations of a host's transcripts as `host` usage examples. */
export function learnFromHost(options: HostLearnOptions): HostLearnReport {
  assertKnownOptions(options, LEARN_FROM_HOST_OPTION_KEYS, 'learnFromHost');
  const host = checkLearnHost(options.host);
  if (!catalogExists(options.catalog))
    throw new SkilldexError('CATALOG_MISSING', `no catalog at ${options.catalog}`, {
      catalog: options.catalog,
    });
  const dir = options.dir ?? defaultTranscriptDir(host, options.home ?? process.env['HOME'] ?? '.');
  const read = readTranscripts(host, dir, options.since ? { since: options.since } : {});
  const { served, unknown } = splitServed(options.catalog, read.activations);
  const telemetry = telemetryPathFor(options.catalog);
  const db = openUsageForWrite(telemetry);
  try {
    const examples: NewUsageExample[] = served.map((a) => ({
      skill_id: a.skill,
      query: a.prompt,
      session: a.session,
      key: `${host}:${a.key}`,
      ...(a.at !== '' ? { at: a.at } : {}),
    }));
    const now = (options.now ?? (() => new Date()))().toISOString();
    const cutoff = retentionCutoff(now, options.retentionDays ?? DEFAULT_USAGE_RETENTION_DAYS);
    const expired = examples.filter(
      (e) => e.at !== undefined && Date.parse(e.at) < Date.parse(cutoff),
    ).length;
    const added = addUsageExamples(
      db,
      examples,
      'host',
      now,
      { client: host },
      options.retentionDays,
    );
    const counts = usageCounts(db, 'host');
    const per: Record<string, number> = {};
    for (const id of [...new Set(served.map((a) => a.skill))].sort()) per[id] = counts.get(id) ?? 0;
    return {
      catalog: options.catalog,
      telemetry,
      host,
      dir,
      since: options.since?.toISOString() ?? null,
      files_read: read.files_read,
      files_older: read.files_older,
      activations: served.length,
      added,
      already_learned: served.length - added - expired,
      older_than_retention: expired,
      unknown_skills: unknown,
      without_prompt: read.without_prompt,
      malformed_lines: read.malformed_lines,
      truncated_files: read.truncated_files,
      skipped: read.skipped.slice(0, MAX_SKIPPED_LISTED),
      skipped_total: read.skipped.length,
      capped: read.capped,
      per_skill: per,
    };
  } finally {
    db.close();
  }
}

// Activations of skills the published generation serves (not archived), and the other names counted.
function splitServed(
  catalog: string,
  activations: readonly Activation[],
): { served: Activation[]; unknown: { skill: string; count: number }[] } {
  const reader = new CatalogReader(catalog);
  const known = new Map<string, boolean>();
  const served: Activation[] = [];
  const unknown = new Map<string, number>();
  try {
    reader.read(() => {
      for (const a of activations) {
        let ok = known.get(a.skill);
        if (ok === undefined) {
          const r = servingRowidOf(reader, a.skill);
          ok = r !== undefined && r.state !== 'archived';
          known.set(a.skill, ok);
        }
        if (ok) served.push(a);
        else unknown.set(a.skill, (unknown.get(a.skill) ?? 0) + 1);
      }
    });
  } finally {
    reader.close();
  }
  const list = [...unknown]
    .map(([skill, count]) => ({ skill, count }))
    .sort((a, b) => b.count - a.count || (a.skill < b.skill ? -1 : a.skill > b.skill ? 1 : 0))
    .slice(0, MAX_UNKNOWN_LISTED);
  return { served, unknown: list };
}

/** The keys `learnFromHost` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const LEARN_FROM_HOST_OPTION_KEYS = optionKeys<NonNullable<Parameters<typeof learnFromHost>[0]>>()(
  'catalog',
  'host',
  'dir',
  'home',
  'since',
  'now',
  'retentionDays',
);
