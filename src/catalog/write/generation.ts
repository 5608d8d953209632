/**
 * Content-derived generation ids (docs/integration.md §1): sha256 over the canonical, sorted lines
 * of a published set plus the policy id. A member's line is `skill_id \t revision_id \t state`, and
 * for a skill with supporting files `skill_id \t revision_id \t state \t manifest_id`, the id of its
 * files listing (skill-files.ts `manifestIdOf`): what a server serves changes when a script does, so
 * the generation does too, while a catalog of SKILL.md-only skills keeps the ids it always had. The
 * same content gives the same id on any machine and either backend, whatever the enumeration order.
 */
import { sha256Of } from '../../fsx/index.js';

/** One member of a generation. */
export interface Member {
  readonly skill_id: string;
  readonly revision_id: string;
  readonly state: 'active' | 'deprecated' | 'archived';
  /** The id of the skill's supporting-files listing; null or absent when it has none. */
  readonly manifest_id?: string | null;
}

/** The generation id of `members` under `policy`: `sha256:<64 hex>`. */
export function computeGeneration(members: readonly Member[], policy: string): string {
  const lines = members.map(
    (m) =>
      `${m.skill_id}\t${m.revision_id}\t${m.state}${m.manifest_id ? `\t${m.manifest_id}` : ''}\n`,
  );
  // Sort by code unit order: locale-independent, so every machine agrees.
  lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sha256Of(`policy\t${policy}\n` + lines.join(''));
}
