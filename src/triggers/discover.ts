/**
 * Finds the trigger cases of a library (issue #24): trigger-eval files beside each skill in the
 * scopes, the project's `skilldex-evals.jsonl`, and files named on the command line; reads them
 * (formats.ts) and ties every case to one skill. Reads only inside the scopes, the project file and
 * the files given, through src/fsx (regular files, size caps, the walk's link rules).
 *
 * A file is beside a skill when it sits in the skill's folder or up to two levels below it
 * (`evals/`, `eval/`, `evals/trigger/`, `benchmarks/`): its unnamed cases are that skill's. A file
 * higher up (a repository's `evals/` above `skills/<name>/`) is the skill's when exactly one skill
 * lies under the folder that holds it (its parent, for an `evals`-like folder), else its cases
 * must name their skills (a suite's keyed file, routing lists, `skill` fields).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { SkilldexError, problem, type Problem } from '../errors.js';
import { readTextCapped, walkFiles } from '../fsx/index.js';
import { TRIGGER_FILE_RE, parseTriggerFile, type RawCase } from '../router/index.js';
import type { ScoredCaseInput } from './score.js';

export { TRIGGER_FILE_RE };
/** The project-level file of extra cases `{ query, skill, should_trigger }`. */
export const PROJECT_FILE = 'skilldex-evals.jsonl';
/** Largest trigger-eval file read (a few thousand cases are ~1 MB). */
export const MAX_TRIGGER_FILE_BYTES = 8 * 1024 * 1024;
// Folders that hold eval files for the folder above them.
const EVAL_DIRS: ReadonlySet<string> = new Set(['evals', 'eval', 'benchmarks', 'tests', 'trigger']);

/** One case tied to its skill, with a stable id and where it came from (what scoring reads). */
export type TriggerCase = ScoredCaseInput;

/** What discovery read: the cases, the files with their case counts, problems and skipped items. */
export interface FoundCases {
  readonly cases: TriggerCase[];
  readonly files: { readonly path: string; readonly cases: number; readonly skipped: number }[];
  readonly problems: Problem[];
}

/** A skill as discovery sees it: its id and its SKILL.md. */
export interface CaseSkill {
  readonly skill_id: string;
  readonly path: string;
}

/**
 * The cases of `skills` from the eval files in `scopes`, the project file in `project` (when it
 * exists) and `extraFiles`.
 */
export function findTriggerCases(
  skills: readonly CaseSkill[],
  scopes: readonly string[],
  project: string | undefined,
  extraFiles: readonly string[],
): FoundCases {
  const known = new Set(skills.map((s) => s.skill_id));
  const folders = skills.map((s) => ({ id: s.skill_id, dir: path.dirname(s.path) }));
  const rel = relativeTo([...scopes, ...(project !== undefined ? [project] : [])]);
  const out: FoundCases = { cases: [], files: [], problems: [] };
  const seen = new Set<string>();
  const readFile = (
    file: string,
    owner: (c: RawCase) => string | undefined,
    named = false,
  ): void => {
    const r = readTextCapped(file, { maxBytes: MAX_TRIGGER_FILE_BYTES });
    if (!r.ok) {
      // A file the caller named must be readable; one found in a scope is a problem of the run.
      if (named)
        throw new SkilldexError('FILE_NOT_FOUND', `cannot read ${file}: ${r.problem.message}`, {
          file,
          problem_code: r.problem.code,
        });
      out.problems.push(problem('TRIGGER_EVAL_INVALID', file, r.problem.message));
      return;
    }
    const parsed = parseTriggerFile(r.text, file);
    out.problems.push(...parsed.problems);
    let n = 0;
    for (const c of parsed.cases) {
      const skill = c.skill ?? owner(c);
      const where = `${file}${c.line !== undefined ? `:${c.line}` : ''}`;
      if (skill === undefined) {
        out.problems.push(
          problem(
            'TRIGGER_EVAL_UNATTRIBUTED',
            file,
            `${where}: names no skill, and no single skill lies beside the file`,
            c.line,
          ),
        );
        continue;
      }
      if (!known.has(skill)) {
        out.problems.push(
          problem(
            'TRIGGER_EVAL_UNKNOWN_SKILL',
            file,
            `${where}: no skill ${JSON.stringify(skill)} in the library`,
            c.line,
          ),
        );
        continue;
      }
      n++;
      out.cases.push({
        id: c.id ?? `${rel(file)}${c.locator}`,
        skill_id: skill,
        query: c.query,
        should_trigger: c.should_trigger,
        file,
        ...(c.line !== undefined ? { line: c.line } : {}),
      });
    }
    out.files.push({ path: file, cases: n, skipped: parsed.skipped });
  };
  for (const scope of scopes) {
    for (const f of walkFiles(scope, (n) => TRIGGER_FILE_RE.test(n)).files) {
      if (seen.has(f.realPath)) continue;
      seen.add(f.realPath);
      const owner = ownerOf(f.path, folders);
      readFile(f.path, () => owner);
    }
  }
  const projectFile = project !== undefined ? path.join(project, PROJECT_FILE) : undefined;
  if (projectFile !== undefined && existsSync(projectFile)) readFile(projectFile, () => undefined);
  for (const file of extraFiles) readFile(file, () => undefined, true);
  uniqueIds(out.cases);
  return out;
}

// The skill a file beside it belongs to: the deepest skill folder holding the file within two
// levels; else, for a file higher up, the only skill under the folder it serves.
function ownerOf(
  file: string,
  folders: readonly { id: string; dir: string }[],
): string | undefined {
  const dir = path.dirname(file);
  let best: { id: string; dir: string } | undefined;
  for (const f of folders) {
    const r = path.relative(f.dir, dir);
    const inside = r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
    if (inside && r.split(path.sep).filter((s) => s !== '').length <= 2)
      if (best === undefined || f.dir.length > best.dir.length) best = f;
  }
  if (best !== undefined) return best.id;
  let base = dir;
  while (EVAL_DIRS.has(path.basename(base).toLowerCase())) base = path.dirname(base);
  const under = folders.filter((f) => f.dir === base || f.dir.startsWith(base + path.sep));
  return under.length === 1 ? under[0]!.id : undefined;
}

// A path relative to the innermost of `roots` holding it (with `/`), else as given.
function relativeTo(roots: readonly string[]): (p: string) => string {
  const byDepth = [...roots].sort((a, b) => b.length - a.length);
  return (p) => {
    const root = byDepth.find((r) => p.startsWith(r + path.sep));
    return (root === undefined ? p : path.relative(root, p)).split(path.sep).join('/');
  };
}

// Case ids must be unique: a repeated item id falls back to the file and locator form.
function uniqueIds(cases: TriggerCase[]): void {
  const count = new Map<string, number>();
  for (const c of cases) count.set(c.id, (count.get(c.id) ?? 0) + 1);
  cases.forEach((c, i) => {
    if ((count.get(c.id) ?? 0) > 1)
      cases[i] = { ...c, id: `${c.id}@${path.basename(c.file)}:${c.line ?? i}` };
  });
}
