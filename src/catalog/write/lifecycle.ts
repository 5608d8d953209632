/**
 * Lifecycle of catalog skills (issue #3): deprecate (with reason and replacement), archive and
 * restore change the working set's state; a publish makes the change visible to consumers.
 * Archived skills are never candidates and a pinned fetch answers SKILL_ARCHIVED (docs/integration.md §4).
 */
import { SkilldexError } from '../../errors.js';
import type { Db } from '../db.js';
import { clearReindexRecord } from './reindex-digest.js';

/** A lifecycle state. */
export type LifecycleState = 'active' | 'deprecated' | 'archived';

/** The state change made. */
export interface LifecycleChange {
  readonly skill_id: string;
  readonly from: LifecycleState;
  readonly to: LifecycleState;
  readonly reason: string | null;
  readonly replacement: string | null;
}

/**
 * Sets the working-set state of `skillId`. SKILL_NOT_FOUND when the catalog never saw it;
 * INVALID_ARGUMENT when the replacement is unknown or is the skill itself.
 */
export function setLifecycle(
  db: Db,
  skillId: string,
  to: LifecycleState,
  options: { reason?: string; replacement?: string } = {},
): LifecycleChange {
  return db
    .transaction((): LifecycleChange => {
      const row = db.prepare(`SELECT state FROM skills WHERE skill_id = ?`).get(skillId) as
        { state: LifecycleState } | undefined;
      if (!row)
        throw new SkilldexError(
          'SKILL_NOT_FOUND',
          `no skill ${JSON.stringify(skillId)} in this catalog`,
          { skill_id: skillId },
        );
      const replacement = options.replacement ?? null;
      if (replacement !== null) {
        if (replacement === skillId) {
          throw new SkilldexError(
            'INVALID_ARGUMENT',
            `--replacement must name another skill than ${skillId}`,
            { replacement },
          );
        }
        if (!db.prepare(`SELECT 1 FROM skills WHERE skill_id = ?`).get(replacement)) {
          throw new SkilldexError(
            'INVALID_ARGUMENT',
            `--replacement ${JSON.stringify(replacement)} is not a skill in this catalog`,
            { replacement },
          );
        }
      }
      const reason = to === 'active' ? null : (options.reason ?? null);
      // The working set changes: a fast re-index must not answer "unchanged" (reindex-digest.ts).
      clearReindexRecord(db);
      db.prepare(`UPDATE skills SET state = ?, reason = ?, replacement = ? WHERE skill_id = ?`).run(
        to,
        reason,
        to === 'deprecated' ? replacement : null,
        skillId,
      );
      return {
        skill_id: skillId,
        from: row.state,
        to,
        reason,
        replacement: to === 'deprecated' ? replacement : null,
      };
    })
    .immediate();
}
