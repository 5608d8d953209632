/**
 * Read-only views of a catalog for the explorer (`skilldex serve`, issue 15): one skill's record
 * with every revision seen and its state in each generation, the catalog's counts by scope and
 * state, and each generation's changes against its parent. Answers from one snapshot per call
 * through a CatalogReader, so a catalog re-published (or replaced) while it runs is seen on the next
 * call. Never writes, never reads a skill's file.
 */
import { SkilldexError } from '../../errors.js';
import { CatalogReader, type GenerationHead } from './reader.js';
import { FILES_SCHEMA_VERSION } from './queries-files.js';
import { generationRows } from './queries.js';
import type { GenerationRef, HistorySource } from './history.js';
import { generationInfoOf, type GenerationInfo } from './status.js';
import type { LifecycleState } from '../write/lifecycle.js';
import { storedJson } from '../store/stored.js';

/** One revision of a skill the catalog has seen. */
export interface RevisionSeen {
  readonly revision_id: string;
  readonly version: string | null;
  readonly size: number;
  readonly path: string;
  readonly scope: string;
  readonly first_seen: string;
  /** Timestamp of the last generation that served it; null when no generation did. */
  readonly last_served: string | null;
}

/** The state of a skill in one generation (only generations where it changed are listed). */
export interface LifecycleStep extends GenerationRef {
  /** The state in that generation, or 'retired' when it left the generation. */
  readonly state: LifecycleState | 'retired';
  readonly revision_id: string | null;
}

/** What the catalog knows about one skill, beyond what search serves. */
export interface SkillRecordView {
  readonly catalog_generation: string;
  readonly skill_id: string;
  readonly path: string;
  readonly scope: string;
  readonly scope_path: string;
  readonly plugin: string | null;
  readonly state: LifecycleState;
  readonly reason: string | null;
  readonly replacement: string | null;
  readonly keywords: readonly string[];
  readonly tags: readonly string[];
  readonly warnings: readonly unknown[];
  readonly revisions: readonly RevisionSeen[];
  readonly lifecycle: readonly LifecycleStep[];
}

/** Counts of the published generation by scope and state. */
export interface CatalogOverview extends GenerationHead {
  readonly by_scope: readonly {
    readonly scope: string;
    readonly active: number;
    readonly deprecated: number;
    readonly archived: number;
  }[];
}

/** One generation with what changed against its parent. */
export interface GenerationChange extends GenerationInfo {
  readonly added: number;
  readonly changed: number;
  readonly retired: number;
  /** The first MAX_CHANGE_IDS skill ids of each kind, in skill_id order. */
  readonly examples: {
    readonly added: readonly string[];
    readonly changed: readonly string[];
    readonly retired: readonly string[];
  };
}

/** Skill ids listed per kind of change in a GenerationChange (the counts are exact). */
export const MAX_CHANGE_IDS = 20;

/** Generations listed by default by `generationChanges`, newest first. */
export const DEFAULT_GENERATION_LIMIT = 30;

/** Read-only explorer views over one catalog file. */
export class CatalogExplorer {
  private readonly reader: CatalogReader;
  // Views that depend only on the published generation, kept until it changes (a 10,000-skill
  // overview joins every served skill with its revision).
  private cached: {
    seq: number;
    overview?: CatalogOverview;
    servedIds?: string[];
    changes?: Map<number, GenerationChange[]>;
  } = { seq: -1 };

  constructor(readonly file: string) {
    this.reader = new CatalogReader(file);
  }

  /** The record of `skillId` in the published generation; SKILL_NOT_FOUND when it is not served. */
  skill(skillId: string): SkillRecordView {
    return this.reader.read((gen) => {
      const s = this.reader
        .prepare(
          `SELECT s.skill_id, s.state, k.reason, k.replacement, r.path, r.scope, r.scope_path, r.plugin, r.keywords, r.tags, r.warnings
           FROM serving s JOIN revisions r ON r.skill_id = s.skill_id AND r.revision_id = s.revision_id
           LEFT JOIN skills k ON k.skill_id = s.skill_id WHERE s.skill_id = ?`,
        )
        .get(skillId) as
        | {
            skill_id: string;
            state: LifecycleState;
            reason: string | null;
            replacement: string | null;
            path: string;
            scope: string;
            scope_path: string;
            plugin: string | null;
            keywords: string;
            tags: string;
            warnings: string;
          }
        | undefined;
      if (!s)
        throw new SkilldexError(
          'SKILL_NOT_FOUND',
          `no skill ${JSON.stringify(skillId)} is served`,
          { skill_id: skillId },
        );
      const history = this.historyOf(skillId, gen.seq);
      const revisions = (
        this.reader
          .prepare(
            `SELECT revision_id, version, size, path, scope, first_seen FROM revisions WHERE skill_id = ? ORDER BY first_seen, revision_id`,
          )
          .all(skillId) as Omit<RevisionSeen, 'last_served'>[]
      ).map((r) => ({ ...r, last_served: history.lastServed.get(r.revision_id) ?? null }));
      return {
        catalog_generation: gen.catalog_generation,
        skill_id: s.skill_id,
        path: s.path,
        scope: s.scope,
        scope_path: s.scope_path,
        plugin: s.plugin,
        state: s.state,
        reason: s.reason,
        replacement: s.replacement,
        keywords: parseList(s.keywords),
        tags: parseList(s.tags),
        warnings: parseList(s.warnings),
        revisions,
        lifecycle: history.steps,
      };
    });
  }

  /** Counts of the published generation by scope and state. */
  overview(): CatalogOverview {
    return this.reader.read(
      (gen) =>
        (this.cache(gen.seq).overview ??= {
          catalog_generation: gen.catalog_generation,
          policy: gen.policy,
          created_at: gen.created_at,
          counts: gen.counts,
          by_scope: this.reader
            .prepare(
              `SELECT r.scope AS scope, count(*) FILTER (WHERE s.state = 'active') AS active, count(*) FILTER (WHERE s.state = 'deprecated') AS deprecated, count(*) FILTER (WHERE s.state = 'archived') AS archived
           FROM serving s JOIN revisions r ON r.skill_id = s.skill_id AND r.revision_id = s.revision_id
           GROUP BY r.scope ORDER BY r.scope`,
            )
            .all() as CatalogOverview['by_scope'],
        }),
    );
  }

  // The per-generation cache, emptied when the published sequence moved.
  private cache(seq: number): CatalogExplorer['cached'] {
    if (this.cached.seq !== seq) this.cached = { seq };
    return this.cached;
  }

  /** The ids of every served skill that is not archived, in skill_id order. */
  servedIds(): string[] {
    return this.reader.read(
      (gen) =>
        (this.cache(gen.seq).servedIds ??= (
          this.reader
            .prepare(`SELECT skill_id FROM serving WHERE state != 'archived' ORDER BY skill_id`)
            .all() as { skill_id: string }[]
        ).map((r) => r.skill_id)),
    );
  }

  /** The newest `limit` generations (1–1000, default 30) with what each added, changed and retired. */
  generationChanges(limit = DEFAULT_GENERATION_LIMIT): GenerationChange[] {
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `limit must be a whole number from 1 to 1000, got ${limit}`,
        { limit },
      );
    }
    return this.reader.read((gen) => {
      const changes = (this.cache(gen.seq).changes ??= new Map<number, GenerationChange[]>());
      const known = changes.get(limit);
      if (known) return known;
      const rows = generationRows(this.reader, limit);
      const added = this.reader.prepare(
        `SELECT skill_id FROM generation_members WHERE seq = @seq AND skill_id NOT IN (SELECT skill_id FROM generation_members WHERE seq = @parent) ORDER BY skill_id`,
      );
      // From migration 3 a member also changes when only its supporting files did.
      const files =
        this.reader.schemaVersion() >= FILES_SCHEMA_VERSION
          ? ' OR m.manifest_id IS DISTINCT FROM p.manifest_id'
          : '';
      const changed = this.reader.prepare(
        `SELECT m.skill_id FROM generation_members m JOIN generation_members p ON p.seq = @parent AND p.skill_id = m.skill_id
         WHERE m.seq = @seq AND (m.revision_id != p.revision_id OR m.state != p.state${files}) ORDER BY m.skill_id`,
      );
      const retired = this.reader.prepare(
        `SELECT skill_id FROM generation_members WHERE seq = @parent AND skill_id NOT IN (SELECT skill_id FROM generation_members WHERE seq = @seq) ORDER BY skill_id`,
      );
      const result = rows.map((g) => {
        const params = { seq: g.seq, parent: g.parent_seq ?? -1 };
        const a = (added.all(params) as { skill_id: string }[]).map((r) => r.skill_id);
        const c = (changed.all(params) as { skill_id: string }[]).map((r) => r.skill_id);
        const r = (retired.all(params) as { skill_id: string }[]).map((x) => x.skill_id);
        return {
          ...generationInfoOf(g, gen.seq),
          added: a.length,
          changed: c.length,
          retired: r.length,
          examples: {
            added: a.slice(0, MAX_CHANGE_IDS),
            changed: c.slice(0, MAX_CHANGE_IDS),
            retired: r.slice(0, MAX_CHANGE_IDS),
          },
        };
      });
      changes.set(limit, result);
      return result;
    });
  }

  /**
   * Runs `fn` over one snapshot of the catalog, with the history queries' view of it (history.ts):
   * the explorer's generation diff reads through this.
   */
  history<T>(fn: (src: HistorySource) => T): T {
    return this.reader.read(() => fn(this.reader));
  }

  /** Closes the catalog. */
  close(): void {
    this.reader.close();
  }

  // The generations up to `upTo` in which the skill's state or revision changed (or it left), and
  // when each revision was last served. One primary-key lookup per generation: generation_members
  // is keyed (seq, skill_id), so asking by skill_id alone would scan every generation's members.
  private historyOf(
    skillId: string,
    upTo: number,
  ): { steps: LifecycleStep[]; lastServed: Map<string, string> } {
    const rows = this.reader
      .prepare(
        `SELECT g.seq, g.generation_id, g.created_at, m.state, m.revision_id
         FROM generations g LEFT JOIN generation_members m ON m.seq = g.seq AND m.skill_id = ?
         WHERE g.seq <= ? ORDER BY g.seq`,
      )
      .all(skillId, upTo) as {
      seq: number;
      generation_id: string;
      created_at: string;
      state: LifecycleState | null;
      revision_id: string | null;
    }[];
    const steps: LifecycleStep[] = [];
    const lastServed = new Map<string, string>();
    let last: { state: string; revision: string | null } | undefined;
    for (const r of rows) {
      if (r.revision_id !== null) lastServed.set(r.revision_id, r.created_at);
      const state = r.state ?? 'retired';
      // Generations before the skill first appeared are not part of its history.
      if (last === undefined && r.state === null) continue;
      if (last !== undefined && last.state === state && last.revision === r.revision_id) continue;
      steps.push({
        seq: r.seq,
        catalog_generation: r.generation_id,
        created_at: r.created_at,
        state,
        revision_id: r.revision_id,
      });
      last = { state, revision: r.revision_id };
    }
    return { steps, lastServed };
  }
}

// Catalog columns that hold JSON arrays; anything else reads as an empty list.
function parseList(json: string): unknown[] & string[] {
  const v = storedJson<unknown>(json, 'a list column');
  return Array.isArray(v) ? (v as string[]) : [];
}
