/**
 * init's library steps: which folder(s) become the skill library (the --library flag, the
 * configured library.scopes, the folders the client already loads skills from, or the default
 * outside every natively loaded folder), the `library` steps that create them, and the `move` step
 * that, with --move, takes the skill folders out of a natively loaded folder (renaming, or copying
 * across file systems).
 */
import { cpSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { SkilldexError } from '../../errors.js';
import { xdgBaseDir } from '../../fsx/index.js';
import type { CliContext } from '../context.js';
import { ROUTER_FOLDER } from './clients.js';
import { exists } from './files.js';
import type { PluginSkills } from './plugins.js';
import type { UndoRecord } from './record.js';
import type { InitFlags } from './report.js';
import type { PlannedStep, StepContext } from './steps.js';

const inside = (dir: string, p: string): boolean => {
  const r = path.relative(dir, p);
  return r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
};

// The library: the flag, else the configured one, else the folders the client already loads skills
// from (indexed in place, issue 35), else the default outside every native folder; with --move, a
// library inside a natively loaded folder (with no --library: the client's own skills folder) is
// moved out.
export function planLibrary(
  ctx: CliContext,
  o: InitFlags,
  sc: StepContext,
  configured: readonly string[] | undefined,
  paths: { native: readonly string[]; skills?: string },
  home: string,
  /** The enabled plugins' skill folders the client loads (plugins.ts; none but Claude Code's). */
  pluginFolders: readonly PluginSkills[] = [],
): {
  library: string;
  scopes: string[];
  move?: { from: string; names: string[] };
  planned: PlannedStep[];
  notes: string[];
} {
  const outside = path.join(xdgBaseDir('XDG_DATA_HOME', ctx.io.env, home), 'skilldex', 'library');
  const planned: PlannedStep[] = [];
  const notes: string[] = [];
  if (o.library === undefined && (configured === undefined || configured.length === 0)) {
    const inPlace = planInPlace(o, sc, paths.native, pluginFolders, outside);
    if (inPlace !== undefined) return inPlace;
  }
  let library =
    o.library !== undefined
      ? path.resolve(ctx.io.cwd, o.library)
      : o.move === true && paths.skills !== undefined && configured === undefined
        ? paths.skills
        : (configured?.[0] ?? outside);
  const nativeHit = paths.native.find((n) => inside(n, library));
  let move: { from: string; names: string[] } | undefined;
  if (nativeHit !== undefined && o.move) {
    move = { from: library, names: movableSkills(library) };
    library = outside;
    planned.push(planMove(sc, move, library));
  } else if (nativeHit !== undefined)
    notes.push(
      nativeNote(sc.client, library, nativeHit, outside, o.library === undefined && !!configured),
    );
  const scopes =
    o.library === undefined &&
    move === undefined &&
    configured !== undefined &&
    configured.length > 0
      ? [...configured]
      : [library];
  // (A move takes the native folder's skills into the library.)
  const missed =
    move === undefined ? notRouted(sc.client, scopes, paths.native, pluginFolders) : undefined;
  if (missed !== undefined) notes.push(missed);
  for (const dir of scopes)
    planned.push({
      step: {
        step: 'library',
        action: exists(dir) ? 'unchanged' : 'create',
        target: dir,
        detail: 'the skill library folder',
      },
      apply: () => {
        mkdirSync(dir, { recursive: true });
        return [];
      },
    });
  return { library, scopes, ...(move ? { move } : {}), planned, notes };
}

// With no library set: the folders the client already loads skills from (its own, with --move none;
// its enabled plugins', never moved) as the library, indexed in place (issue 35); undefined when
// none holds a skill.
function planInPlace(
  o: InitFlags,
  sc: StepContext,
  native: readonly string[],
  pluginFolders: readonly PluginSkills[],
  outside: string,
): { library: string; scopes: string[]; planned: PlannedStep[]; notes: string[] } | undefined {
  const planned: PlannedStep[] = [];
  const notes: string[] = [];
  const own = o.move === true ? [] : native.filter((d) => movableSkills(d, true).length > 0);
  // The enabled plugins' skill folders (Claude Code): indexed in place too, never moved (the
  // host's plugin manager owns them), their skills named `<plugin>:<skill>` as the host does.
  const plugins = o.move === true ? [] : pluginFolders;
  const found = [...own, ...plugins.map((p) => p.path)];
  if (found.length > 0) {
    const count =
      own.reduce((n, d) => n + movableSkills(d, true).length, 0) +
      plugins.reduce((n, p) => n + p.skills.length, 0);
    planned.push({
      step: {
        step: 'library',
        action: 'unchanged',
        target: found.join(', '),
        detail:
          `the ${count} skill folder(s) ${sc.client} already loads, indexed in place (--library picks another folder)` +
          (plugins.length > 0
            ? `; ${plugins.length} of the folders are plugins': ${plugins.map((p) => `${p.plugin} (${p.skills.length})`).join(', ')}`
            : ''),
      },
    });
    notes.push(
      `skilldex indexes the skills ${sc.client} already loads where they are (${found.join(', ')}): ${sc.client} still lists each of them natively too. ` +
        (own.length > 0
          ? `Rerun with --move to move them to ${outside}, so only the router skill is always loaded.`
          : ''
        ).trimEnd(),
    );
    for (const p of plugins)
      notes.push(
        `plugin ${p.plugin}: ${p.skills.length} skill(s) in ${p.path}, indexed in place as ${p.skills
          .slice(0, 5)
          .map((n) => `${p.plugin}:${n}`)
          .join(', ')}${p.skills.length > 5 ? ', …' : ''} (the plugin's own folder: never moved)`,
      );
    return { library: found[0]!, scopes: found, planned, notes };
  }
  return undefined;
}

/**
 * The folders a client loads skills from (`native`, its enabled plugins' folders) that hold skills
 * and lie outside the library `scopes`, each with its number of skills: the client lists those
 * skills natively, but the hook and skill_search never name them (issue 35). init's report and
 * doctor's `library` check name them.
 */
export function foldersLeftOut(
  scopes: readonly string[],
  native: readonly string[],
  plugins: readonly PluginSkills[],
): { dir: string; skills: number }[] {
  const covered = (d: string): boolean => scopes.some((s) => inside(s, d));
  return [
    ...native
      .filter((d) => !covered(d))
      .map((d) => ({ dir: d, skills: movableSkills(d, true).length }))
      .filter((x) => x.skills > 0),
    ...plugins
      .filter((p) => !covered(p.path))
      .map((p) => ({ dir: p.path, skills: p.skills.length })),
  ];
}

/** What to do about folders foldersLeftOut found: add them to library.scopes and index. */
export function leftOutFix(left: readonly { dir: string }[]): string {
  return (
    `add ${left.length > 1 ? 'those folders' : 'that folder'} to library.scopes in your skilldex ` +
    'config (skilldex config shows which file) and run skilldex index'
  );
}

// init's note on the folders this client loads skills from that the library leaves out (a library
// an earlier init set up for another client, or --library); undefined when there are none.
function notRouted(
  client: string,
  scopes: readonly string[],
  native: readonly string[],
  plugins: readonly PluginSkills[],
): string | undefined {
  const left = foldersLeftOut(scopes, native, plugins);
  if (left.length === 0) return undefined;
  const n = left.reduce((sum, x) => sum + x.skills, 0);
  return (
    `${client} also loads ${n} skill(s) from ${left.map((x) => x.dir).join(', ')}, outside the library ` +
    `(library.scopes = [${scopes.join(', ')}]): ${client} lists them natively, but the prompt hook and ` +
    `skill_search never name them. To route them too, ${leftOutFix(left)}.`
  );
}

// The note on a library in a folder the client loads natively. `inPlace`: the host's own folder
// that an earlier init indexed in place (and wrote to the config): the same note as then, not a
// warning that reads as if this set-up were wrong (issue 35).
function nativeNote(
  client: string,
  library: string,
  nativeHit: string,
  outside: string,
  inPlace: boolean,
): string {
  return inPlace
    ? `skilldex indexes the skills ${client} already loads where they are (${library}): ${client} still lists each of them natively too. ` +
        `Rerun with --move to move them to ${outside}, so only the router skill is always loaded.`
    : `${library} is ${library === nativeHit ? 'a folder' : `inside ${nativeHit}, a folder`} ${client} loads natively: every skill there is always in the agent's context, which is what skilldex is meant to avoid. ` +
        `Keep the library in ${outside} instead (rerun with --move to move the skill folders there).`;
}

// The skill folders a --move would take (every folder but the router skill's); `withSkill`: only
// those holding a SKILL.md.
function movableSkills(from: string, withSkill = false): string[] {
  if (!exists(from)) return [];
  try {
    return readdirSync(from)
      .sort()
      .filter(
        (n) =>
          n !== ROUTER_FOLDER &&
          statSync(path.join(from, n)).isDirectory() &&
          (!withSkill || exists(path.join(from, n, 'SKILL.md'))),
      );
  } catch {
    return [];
  }
}

function planMove(
  sc: StepContext,
  move: { from: string; names: string[] },
  to: string,
): PlannedStep {
  return {
    step: {
      step: 'move',
      action: move.names.length > 0 ? 'run' : 'unchanged',
      target: to,
      detail: `move ${move.names.length} skill folder(s) from ${move.from} (loaded natively by ${sc.client}) to ${to}`,
    },
    apply: () => {
      if (move.names.length === 0) return [];
      moveSkills(move.from, to, move.names);
      const r: UndoRecord = {
        kind: 'moved',
        client: sc.client,
        step: 'move',
        file: to,
        from: move.from,
        names: move.names,
      };
      return [r];
    },
  };
}

function moveSkills(from: string, to: string, names: readonly string[]): void {
  mkdirSync(to, { recursive: true });
  for (const name of names) {
    const src = path.join(from, name);
    const dst = path.join(to, name);
    if (exists(dst))
      throw new SkilldexError('FILE_EXISTS', `cannot move ${src}: ${dst} already exists`, {
        file: dst,
      });
    try {
      renameSync(src, dst);
    } catch (err) {
      // Another file system: copy, then remove the original.
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV')
        throw new SkilldexError(
          'WRITE_FAILED',
          `cannot move ${src} to ${dst}: ${(err as Error).message}`,
          { file: src },
          { cause: err },
        );
      cpSync(src, dst, { recursive: true, verbatimSymlinks: true });
      rmSync(src, { recursive: true });
    }
  }
}
