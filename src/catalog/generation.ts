/**
 * Content-derived generation ids (docs/integration.md §1): sha256 over the canonical, sorted
 * `skill_id \t revision_id \t state` lines of a published set plus the policy id. The same content
 * gives the same id on any machine, whatever the enumeration order.
 */
import { sha256Of } from '../fsx/index.js';

/** One member of a generation. */
export interface Member {
  readonly skill_id: string;
  readonly revision_id: string;
  readonly state: 'active' | 'deprecated' | 'archived';
}

/** The generation id of `members` under `policy`: `sha256:<64 hex>`. */
export function computeGeneration(members: readonly Member[], policy: string): string {
  const lines = members.map((m) => `${m.skill_id}\t${m.revision_id}\t${m.state}\n`);
  // Sort by code unit order: locale-independent, so every machine agrees.
  lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sha256Of(`policy\t${policy}\n` + lines.join(''));
}
