/**
 * Renders substrate read results as YAML (docs/substrate.md), pure: `hits:` and for each hit exactly
 * `type`, `id`, `description`, `stop_depth`, in that order, through the yaml package's stringify
 * (so quoting of `:`, `#`, `|` and the like is always valid YAML). Adds nothing else.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

// Loaded on first use (only --yaml output needs it), so other commands do not pay for it at start-up.
const requireCjs = createRequire(import.meta.url);
import type { SubstrateReport } from './types.js';

/** The `hits:` list of `report` as YAML, one mapping per hit in rank order. */
export function renderHitsYaml(report: Pick<SubstrateReport, 'hits'>): string {
  const hits = report.hits.map((h) => ({
    type: h.type,
    id: h.id,
    description: h.description,
    stop_depth: h.stop_depth,
  }));
  const { stringify } = requireCjs('yaml') as typeof Yaml;
  return stringify({ hits }, { lineWidth: 0 });
}
