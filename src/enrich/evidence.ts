/**
 * The evidence writer (issue #7): renders the artifacts of a report and writes them into the checked
 * target folder, each atomically (temporary file, then rename) through fsx `writeInside`, with the
 * sanctioned `<project>/evidence/skill-enrichment/` folder as the root. Never writes anywhere else,
 * whatever a description says: every path is a fixed artifact name below the checked target.
 *
 * Artifacts of another outcome left by an earlier run in the same folder are removed first, so a
 * folder never holds an INDEX.md beside a REFUSAL.md. INDEX.md (or REFUSAL.md) is written last: its
 * presence means the run finished.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { SkilldexError } from '../errors.js';
import {
  errCode,
  isInside,
  realpathOrUndefined,
  removeInside,
  resolveInside,
  writeInside,
} from '../fsx/index.js';
import { ARTIFACTS, type EnrichReport } from './report.js';
import { renderCandidatesMd } from './render-candidates.js';
import { renderIndexMd } from './render-index.js';
import { renderRefusalMd } from './render-refusal.js';
import { renderRawInventory, renderSkippedMd } from './render-skipped.js';
import type { EvidenceTarget } from './target.js';

/** One rendered artifact: its file name and its text. */
export interface Artifact {
  readonly name: string;
  readonly text: string;
}

/** Renders the artifacts of `report` in write order (the outcome's main file last). Pure. */
export function renderArtifacts(report: EnrichReport): Artifact[] {
  const shared: Artifact[] = [
    { name: ARTIFACTS.skipped, text: renderSkippedMd(report) },
    { name: ARTIFACTS.inventory, text: renderRawInventory(report) },
  ];
  if (report.outcome === 'refused')
    return [...shared, { name: ARTIFACTS.refusal, text: renderRefusalMd(report) }];
  return [
    { name: ARTIFACTS.candidates, text: renderCandidatesMd(report) },
    ...shared,
    { name: ARTIFACTS.index, text: renderIndexMd(report) },
  ];
}

/**
 * Writes the artifacts of `report` into `target` and returns their absolute paths in write order.
 * Creates the target folder (inside the evidence folder only) when missing.
 */
export function writeEvidence(target: EvidenceTarget, report: EnrichReport): string[] {
  const artifacts = renderArtifacts(report);
  // The evidence folder's real path, verified once: every write and removal is confined to it, so
  // a folder swapped for a link after this check cannot move a write elsewhere.
  const rootReal = ensureEvidenceRoot(target);
  const written = new Set(artifacts.map((a) => a.name));
  const stale = [ARTIFACTS.index, ARTIFACTS.candidates, ARTIFACTS.refusal].filter(
    (n) => !written.has(n),
  );
  // Every path is checked before anything changes: a planted link that leaves the root is refused
  // (PATH_OUTSIDE_ROOT) while the folder is still untouched.
  for (const name of stale) resolveInside(target.root, relTo(target, name));
  for (const a of artifacts) resolveInside(target.root, relTo(target, a.name));
  // Removing a missing file is a no-op; removal goes through the checked folder like the writes.
  for (const name of stale) removeInside(target.root, relTo(target, name), rootReal);
  return artifacts.map((a) => writeInside(target.root, relTo(target, a.name), a.text, rootReal));
}

// The evidence folder may not exist yet. It was checked to resolve inside the project; it is checked
// again once created, so a link planted on the way cannot move it out.
function ensureEvidenceRoot(target: EvidenceTarget): string {
  try {
    mkdirSync(target.root, { recursive: true });
  } catch (err) {
    throw new SkilldexError(
      'WRITE_FAILED',
      `could not create the evidence folder ${target.root}: ${errCode(err)}`,
      { evidence_folder: target.root },
      { cause: err },
    );
  }
  const real = realpathOrUndefined(target.root);
  if (real === undefined || !isInside(target.project, real)) {
    throw new SkilldexError(
      'PATH_OUTSIDE_ROOT',
      `evidence folder ${target.root} resolves outside the project ${target.project}`,
      {
        evidence_folder: target.root,
        ...(real !== undefined ? { real_path: real } : {}),
      },
    );
  }
  return real;
}

function relTo(target: EvidenceTarget, name: string): string {
  return target.rel === '.' ? name : path.join(...target.rel.split('/'), name);
}
