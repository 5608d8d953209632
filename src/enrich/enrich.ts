/**
 * `enrichSkills` (docs/enrich.md, issue #7): one enrichment run from inputs to evidence. Order matters
 * for the contract's "nothing written" promises: the inputs are resolved first (MISSING_ENV), then
 * the target is checked (PATH_OUTSIDE_ROOT), and only then are the scopes read, the descriptions
 * scored and the artifacts written. Reads frontmatter only; writes only inside
 * `<project>/evidence/skill-enrichment/`.
 */
import path from 'node:path';
import { SkilldexError, assertKnownOptions, optionKeys } from '../errors.js';
import { realpathOrUndefined } from '../fsx/index.js';
import { HOME_LABEL, PROJECT_LABEL, makePathDisplay, type PathDisplay } from './display.js';
import { writeEvidence } from './evidence.js';
import { resolveEnrichInputs, type EnrichInputSources } from './inputs.js';
import { takeInventory } from './inventory.js';
import { buildEnrichReport, type EnrichReport } from './report.js';
import { DEFAULT_FLOOR } from './score.js';
import { resolveEvidenceTarget, type EvidenceTarget } from './target.js';

/** Options of `enrichSkills` and `planEnrichment`. */
export interface EnrichOptions extends EnrichInputSources {
  /** Home folder (personal `~/.claude/skills`, plugins under `~/.claude/plugins`); absolute or relative to `cwd`. */
  readonly home: string;
  /** Project folder (`.claude/skills`, `crucible-plugin/skills`, `evidence/skill-enrichment`). Default: `cwd`. */
  readonly project?: string;
  /** Folder relative paths are resolved against (the target, home, project). */
  readonly cwd: string;
  /**
   * Library folders read instead of the four default scopes (personal, project, in-tree, plugins),
   * absolute or relative to `cwd`. Default: the four.
   */
  readonly scopes?: readonly string[];
  /** Scores must be strictly above it; from 0 (inclusive) to 1 (exclusive). Default `DEFAULT_FLOOR` (0.05). */
  readonly floor?: number;
  /** Size cap per SKILL.md in bytes. Default 1 MiB. */
  readonly maxBytes?: number;
  /** Called as the SKILL.md files are read with `(done, total)` files, for progress lines. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** A run planned but not yet written: the report and the checked target. */
export interface EnrichPlan {
  readonly report: EnrichReport;
  readonly target: EvidenceTarget;
}

/** The result of `enrichSkills`: the report and the absolute paths written, in write order. */
export interface EnrichResult {
  readonly report: EnrichReport;
  readonly written: readonly string[];
}

/** The keys of EnrichOptions. */
const ENRICH_OPTION_KEYS = optionKeys<EnrichOptions>()(
  'brief',
  'target',
  'env',
  'home',
  'project',
  'cwd',
  'scopes',
  'floor',
  'maxBytes',
  'onProgress',
);

/**
 * Resolves the inputs, checks the target, reads and scores the skills. Writes nothing.
 * INVALID_ARGUMENT for an unknown option.
 */
export function planEnrichment(options: EnrichOptions): EnrichPlan {
  assertKnownOptions(options, ENRICH_OPTION_KEYS, 'planEnrichment');
  const inputs = resolveEnrichInputs(options);
  const floor = checkFloor(options.floor ?? DEFAULT_FLOOR);
  const home = path.resolve(options.cwd, options.home);
  const project = path.resolve(options.cwd, options.project ?? '.');
  const target = resolveEvidenceTarget(project, inputs.target, options.cwd);
  const display = rootsDisplay(home, project);
  const inventory = takeInventory({
    home,
    project,
    ...(options.scopes !== undefined
      ? { scopes: options.scopes.map((s) => path.resolve(options.cwd, s)) }
      : {}),
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
    ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
  });
  const report = buildEnrichReport(inventory, {
    brief: inputs.brief,
    floor,
    target: display.path(target.path),
    roots: { home, project },
    display,
  });
  return { report, target };
}

/** Runs enrichment end to end: plan, then write the artifacts of the outcome. */
export function enrichSkills(options: EnrichOptions): EnrichResult {
  assertKnownOptions(options, ENRICH_OPTION_KEYS, 'enrichSkills');
  const plan = planEnrichment(options);
  return { report: plan.report, written: writeEvidence(plan.target, plan.report) };
}

/** The display that shows `home` as `~` and `project` as `<project>`, by given and real path. */
export function rootsDisplay(home: string, project: string): PathDisplay {
  const roots = [
    { prefix: project, label: PROJECT_LABEL },
    { prefix: home, label: HOME_LABEL },
  ];
  const realProject = realpathOrUndefined(project);
  const realHome = realpathOrUndefined(home);
  if (realProject !== undefined) roots.push({ prefix: realProject, label: PROJECT_LABEL });
  if (realHome !== undefined) roots.push({ prefix: realHome, label: HOME_LABEL });
  return makePathDisplay(roots);
}

function checkFloor(floor: number): number {
  if (!Number.isFinite(floor) || floor < 0 || floor >= 1) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `--floor must be a number from 0 up to (not including) 1, got ${floor}`,
      {
        option: '--floor',
        value: floor,
      },
    );
  }
  return floor;
}
