/**
 * Rollback (issue #11): republish an earlier generation. Its members (kept in
 * `generation_members` with their supporting-files listings, their revisions in `revisions`) become
 * the working set, published through
 * the ordinary publish path as a new sequence with the old content. The next `index` works from
 * the files again.
 */
import { SkilldexError } from '../../errors.js';
import type { Db } from '../store/db-type.js';
import { publishWorkingSet, type PublishResult } from './publish.js';
import { clearReindexRecord } from './reindex-digest.js';

/** What a rollback did: the generation it republished and the publish result. */
export interface RollbackReport {
  readonly from: { readonly seq: number; readonly catalog_generation: string };
  readonly to: { readonly seq: number; readonly catalog_generation: string };
  readonly publish: PublishResult;
}

/**
 * Republishes an earlier generation of `db` (`generation`: its sequence number or id, `sha256:…`
 * or a hex prefix of at least 8; default: the one published before the current one).
 * GENERATION_NOT_FOUND when there is no such generation; CATALOG_EMPTY when none is published.
 */
export function rollbackWorkingSet(
  db: Db,
  catalog: string,
  generation: string | undefined,
  now: () => Date,
): RollbackReport {
  return db
    .transaction((): RollbackReport => {
      const current = db
        .prepare(
          `SELECT g.seq, g.generation_id, g.parent_seq FROM published p JOIN generations g ON g.seq = p.seq WHERE p.id = 1`,
        )
        .get() as { seq: number; generation_id: string; parent_seq: number | null } | undefined;
      if (!current)
        throw new SkilldexError(
          'CATALOG_EMPTY',
          `${catalog} has no published generation to roll back from`,
          { catalog: catalog },
        );
      const target = findGeneration(db, generation, current);
      const members = db
        .prepare(
          `SELECT skill_id, revision_id, state, manifest_id FROM generation_members WHERE seq = ?`,
        )
        .all(target.seq) as {
        skill_id: string;
        revision_id: string;
        state: string;
        manifest_id: string | null;
      }[];
      // The working set is replaced: a fast re-index must not answer from its record (reindex-digest.ts).
      clearReindexRecord(db);
      db.prepare(`UPDATE skills SET revision_id = NULL, manifest_id = NULL`).run();
      const put = db.prepare(
        `INSERT INTO skills (skill_id, revision_id, state, manifest_id) VALUES (?, ?, ?, ?) ON CONFLICT (skill_id) DO UPDATE SET revision_id = excluded.revision_id, state = excluded.state, manifest_id = excluded.manifest_id`,
      );
      for (const m of members) put.run(m.skill_id, m.revision_id, m.state, m.manifest_id);
      // The ordinary publish path rebuilds the serving tables for the old member list.
      const publish = publishWorkingSet(db, target.policy, now);
      return {
        from: { seq: current.seq, catalog_generation: current.generation_id },
        to: { seq: target.seq, catalog_generation: target.generation_id },
        publish,
      };
    })
    .immediate();
}

function findGeneration(
  db: Db,
  asked: string | undefined,
  current: { seq: number; parent_seq: number | null },
): { seq: number; generation_id: string; policy: string } {
  const bySeq = db.prepare(`SELECT seq, generation_id, policy FROM generations WHERE seq = ?`);
  let row: { seq: number; generation_id: string; policy: string } | undefined;
  if (asked === undefined) {
    if (current.parent_seq === null)
      throw new SkilldexError(
        'GENERATION_NOT_FOUND',
        `generation ${current.seq} is the first one published: there is none before it`,
        {},
      );
    row = bySeq.get(current.parent_seq) as typeof row;
  } else if (/^\d{1,15}$/.test(asked)) {
    row = bySeq.get(Number(asked)) as typeof row;
  } else {
    const hex = asked.replace(/^sha256:/, '').toLowerCase();
    if (!/^[0-9a-f]{8,64}$/.test(hex)) {
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `GENERATION must be a sequence number or a generation id (sha256:…, 8 hex digits at least), got ${JSON.stringify(asked)}`,
        {
          generation: asked,
        },
      );
    }
    row = db
      .prepare(
        `SELECT seq, generation_id, policy FROM generations WHERE substr(generation_id, 8, ?) = ? ORDER BY seq DESC LIMIT 1`,
      )
      .get(hex.length, hex) as typeof row;
  }
  if (!row)
    throw new SkilldexError(
      'GENERATION_NOT_FOUND',
      `no generation ${asked ?? current.parent_seq ?? ''} in this catalog`,
      { generation: asked ?? null },
    );
  return row;
}
