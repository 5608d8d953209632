/**
 * `cascade build` (docs/cascade.md): reads a tree of skills (SKILL.md frontmatter only, through
 * src/skills), plans the cascade, and writes each node's skill.index, skill.index.sha256 and
 * skill.index.md. Writes only inside the built folder (fsx writeInside) and only files whose bytes
 * change; with `check` it writes nothing and lists what would change. Never deletes: index files
 * the plan no longer needs are reported as STALE_INDEX.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { SkilldexError, assertKnownOptions, optionKeys, problem, type Problem } from '../errors.js';
import {
  errCode,
  readBytesCapped,
  realpathOrUndefined,
  resolveInside,
  sha256Hex,
  toPosixRelative,
  walkFiles,
  writeInside,
} from '../fsx/index.js';
import { enumerateSkillFiles, loadSkillFile } from '../skills/index.js';
import { compareStrings } from '../text/index.js';
import { nodeFiles, planCascade, type PlannedSkill } from './build-plan.js';
import { INDEX_FILE } from './index-file.js';
import { auditCascade } from './audit.js';
import { DEFAULT_MAX_INDEX_BYTES, FS_READER, type CascadeReader } from './reader.js';
import type { BuildChange, BuildReport } from './report.js';

/** Options of `buildCascade`. */
export interface BuildOptions {
  /** Compare only: write nothing and list the files that would change. Default false. */
  readonly check?: boolean;
  /** Size cap per SKILL.md in bytes. Default 1 MiB. */
  readonly maxBytes?: number;
  /** Deepest folder level walked below the built folder. Default 24. */
  readonly maxDepth?: number;
  /** Called as the SKILL.md files are read with `(done, total)` files, for progress lines. */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * Audit the cascade as built (with `check`: as it would be built) and put the report in `audit`,
   * so a build says what `cascade audit` would find right after it. Default true.
   */
  readonly audit?: boolean;
  /** Called as the audit crawls the skills for their own names with `(done, total)`. */
  readonly onAuditProgress?: (done: number, total: number) => void;
}

/** Defaults of `buildCascade`. */
export const DEFAULT_BUILD_OPTIONS = Object.freeze({ check: false, audit: true });

const BUILD_OPTION_KEYS = optionKeys<BuildOptions>()(
  'check',
  'maxBytes',
  'maxDepth',
  'onProgress',
  'audit',
  'onAuditProgress',
);

/** Largest existing file compared byte for byte; anything larger simply differs. */
const MAX_COMPARE_BYTES = 4 * DEFAULT_MAX_INDEX_BYTES;

/**
 * Builds (or with `check`, checks) the cascade of the skill tree at `dir`. Throws FILE_NOT_FOUND
 * when `dir` does not exist, INVALID_ARGUMENT when it is not a folder, WRITE_FAILED when a file
 * cannot be written.
 */
export function buildCascade(dir: string, options: BuildOptions = {}): BuildReport {
  assertKnownOptions(options, BUILD_OPTION_KEYS, 'buildCascade');
  const check = options.check ?? DEFAULT_BUILD_OPTIONS.check;
  const abs = path.resolve(dir);
  const real = realpathOrUndefined(abs);
  if (real === undefined)
    throw new SkilldexError('FILE_NOT_FOUND', `skill folder ${dir} does not exist`, { dir });
  if (!statSync(real).isDirectory())
    throw new SkilldexError('INVALID_ARGUMENT', `${dir} is not a folder`, { dir });

  const problems: Problem[] = [];
  const skills = readSkills(real, options, problems);
  const plan = planCascade(skills);
  problems.push(...plan.problems);
  const changes: BuildChange[] = [];
  let unchanged = 0;
  // Every planned file by its path, for the audit below: with `check` they are not on disk.
  const planned = new Map<string, Buffer>();
  for (const node of plan.nodes) {
    for (const file of nodeFiles(node, sha256Hex)) {
      // resolveInside refuses (PATH_OUTSIDE_ROOT) a planted link that would take the read or the write outside.
      const target = resolveInside(real, file.path);
      const before = readBytesCapped(target, MAX_COMPARE_BYTES);
      const bytes = Buffer.from(file.text, 'utf8');
      planned.set(target, bytes);
      if (before.ok && before.bytes.equals(bytes)) {
        unchanged++;
        continue;
      }
      const missing = !before.ok && realpathOrUndefined(target) === undefined;
      changes.push({ path: file.path, change: missing ? 'create' : 'update' });
      if (!check) write(real, file.path, bytes);
    }
  }

  reportStaleIndexes(real, plan.nodes, options.maxDepth, problems);

  problems.sort(
    (a, b) =>
      compareStrings(a.path, b.path) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      compareStrings(a.code, b.code),
  );
  const audit =
    (options.audit ?? DEFAULT_BUILD_OPTIONS.audit)
      ? auditCascade(real, {
          reader: plannedReader(planned),
          ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
          ...(options.onAuditProgress ? { onProgress: options.onAuditProgress } : {}),
        })
      : undefined;
  return {
    check,
    skills: plan.placed,
    nodes: plan.nodes.map((n) => n.rel),
    changes,
    unchanged,
    problems,
    ...(audit !== undefined ? { audit } : {}),
  };
}

/**
 * The skills below `real`, read for planning (name, description, keywords, tags); a file that
 * cannot be read or parsed is a problem and is left out of the cascade.
 */
function readSkills(real: string, options: BuildOptions, problems: Problem[]): PlannedSkill[] {
  const rel = (p: string): string => toPosixRelative(real, p);
  const found = enumerateSkillFiles([{ kind: 'custom', path: real, exists: true }], {
    ...(options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {}),
  });
  for (const s of found.skipped) problems.push(problem(s.code, rel(s.path), s.reason, s.line));
  const skills: PlannedSkill[] = [];
  let read = 0;
  for (const f of found.files) {
    options.onProgress?.(read++, found.files.length);
    const loaded = loadSkillFile(
      f,
      options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {},
    );
    if (!loaded.ok) {
      const p = loaded.problem;
      problems.push(problem(p.code, rel(p.path), `${p.message}: left out of the cascade`, p.line));
      continue;
    }
    const r = loaded.record;
    const folderRel = rel(path.dirname(r.path));
    const folder = folderRel === '.' ? undefined : path.posix.basename(folderRel);
    skills.push({
      rel: folderRel,
      name: r.name,
      ...(folder !== undefined && folder !== r.name ? { folder } : {}),
      description: r.description,
      keywords: r.keywords,
      tags: r.tags,
    });
  }

  options.onProgress?.(found.files.length, found.files.length);
  return skills;
}

/** A STALE_INDEX problem for each index file below `real` that no node of the plan writes. */
function reportStaleIndexes(
  real: string,
  nodes: readonly { rel: string }[],
  maxDepth: number | undefined,
  problems: Problem[],
): void {
  const rel = (p: string): string => toPosixRelative(real, p);
  // Index files the plan no longer writes stay in place; say so, never delete.
  const nodeSet = new Set(nodes.map((n) => n.rel));
  const indexes = walkFiles(
    real,
    (n) => n === INDEX_FILE,
    maxDepth !== undefined ? { maxDepth } : {},
  );
  for (const f of indexes.files) {
    const folder = rel(path.dirname(f.path));
    if (nodeSet.has(folder)) continue;
    problems.push(
      problem(
        'STALE_INDEX',
        rel(f.path),
        `${rel(f.path)} is no longer part of the cascade (no skill below ${folder}): remove it`,
      ),
    );
  }
}

// The file system, except that the files of the plan read as planned (written or not).
function plannedReader(planned: ReadonlyMap<string, Buffer>): CascadeReader {
  return {
    realpath: (p) => (planned.has(p) ? p : FS_READER.realpath(p)),
    readBytes: (p, maxBytes, label) => {
      const bytes = planned.get(p);
      if (bytes === undefined) return FS_READER.readBytes(p, maxBytes, label);
      if (bytes.length > maxBytes)
        return {
          ok: false,
          path: p,
          problem: problem('FILE_TOO_LARGE', label, `${label} is over ${maxBytes} bytes`),
        };
      return { ok: true, bytes };
    },
  };
}

function write(root: string, rel: string, bytes: Buffer): void {
  try {
    writeInside(root, rel, bytes);
  } catch (err) {
    if (err instanceof SkilldexError) throw err;
    throw new SkilldexError(
      'WRITE_FAILED',
      `cannot write ${rel} in ${root}: ${errCode(err)}`,
      { root, path: rel },
      { cause: err },
    );
  }
}
