/**
 * The structural half of `cascade audit` (docs/cascade.md): follows every entry of every node from the
 * root, the way any crawl could, and records what a crawl would meet there: malformed lines,
 * missing or wrong stamps, subtree escapes, broken descents, unreadable nodes, reference loops and
 * entries that lead to no skill. It checks that a leaf's SKILL.md exists (by real path) but never
 * reads it, and never lists a folder: the unreachable-skill check lives in audit.ts.
 */
import path from 'node:path';
import { problem, type Problem } from '../errors.js';
import { isInside } from '../fsx/index.js';
import { INDEX_FILE, type ScannedEntry } from './index-file.js';
import { loadNode, type LoadedNode, type NodeContext } from './node.js';
import { relJoin } from './reader.js';
import { resolveEntry } from './resolve-key.js';

/** The skill file a leaf must hold (docs/cli.md `skilldex scan`). */
const SKILL_FILE = 'SKILL.md';

/** What the walk found: the nodes, the skill folders reached (real path → relative path), problems. */
export interface CascadeWalk {
  readonly nodes: LoadedNode[];
  readonly reached: Map<string, string>;
  readonly problems: Problem[];
  /** False when the root has no skill.index at all. */
  readonly rootIndexed: boolean;
}

/** Whether the folder `real` holds a SKILL.md: inside the root, or a link that leaves it. */
function skillAt(ctx: NodeContext, real: string): 'yes' | 'no' | 'escape' {
  const file = ctx.reader.realpath(path.join(real, SKILL_FILE));
  if (file === undefined) return 'no';
  return isInside(ctx.rootReal, file) ? 'yes' : 'escape';
}

/** Walks the whole cascade below `ctx.rootReal`. */
export function walkCascade(ctx: NodeContext): CascadeWalk {
  const nodes: LoadedNode[] = [];
  const reached = new Map<string, string>();
  const problems: Problem[] = [];
  // Whether a finished node leads to at least one skill; nodes on the current path are absent.
  const leads = new Map<string, boolean>();
  const onPath = new Set<string>();
  const loaded = new Set<string>();
  let rootIndexed = true;

  const visit = (
    real: string,
    rel: string,
    via: { node: LoadedNode; entry: ScannedEntry } | undefined,
  ): boolean => {
    const load = loadNode(ctx, real, rel);
    if (!load.ok) {
      if (load.failure === 'missing' && via === undefined) {
        rootIndexed = false;
        problems.push(
          problem('INDEX_MISSING', INDEX_FILE, `the cascade root has no ${INDEX_FILE}`),
        );
      } else if (load.failure === 'missing' && via !== undefined) {
        const from = relJoin(via.node.rel, INDEX_FILE);
        const msg = `${from}:${via.entry.line}: descent ${JSON.stringify(via.entry.key)} leads to ${rel}, which has no ${INDEX_FILE}`;
        problems.push(problem('BROKEN_DESCENT', from, msg, via.entry.line));
      } else problems.push(load.problem);
      leads.set(real, false);
      return false;
    }
    const node = load.node;
    nodes.push(node);
    loaded.add(real);
    problems.push(...node.problems);
    onPath.add(real);
    let any = false;
    const label = relJoin(rel, INDEX_FILE);
    const dead = (e: ScannedEntry, why: string): void => {
      problems.push(
        problem(
          'DEAD_ENTRY',
          label,
          `${label}:${e.line}: entry ${JSON.stringify(e.key)} ${why}`,
          e.line,
        ),
      );
    };
    for (const e of node.index.entries) {
      const target = resolveEntry(ctx.reader, ctx.rootReal, real, rel, e);
      if (!target.ok) {
        problems.push(target.problem);
        continue;
      }
      if (e.kind !== 'descent') {
        if (target.real === undefined) {
          dead(e, `leads to ${target.rel}, which does not exist`);
          continue;
        }
        const skill = skillAt(ctx, target.real);
        if (skill === 'yes') {
          reached.set(target.real, target.rel);
          any = true;
        } else
          dead(
            e,
            skill === 'no'
              ? `leads to ${target.rel}, which has no ${SKILL_FILE}`
              : `leads to a ${SKILL_FILE} that is a link leaving the root`,
          );
        continue;
      }
      if (target.real === undefined) {
        const msg = `${label}:${e.line}: descent ${JSON.stringify(e.key)} leads to ${target.rel}, which does not exist`;
        problems.push(problem('BROKEN_DESCENT', label, msg, e.line));
        continue;
      }
      if (onPath.has(target.real)) {
        const msg = `${label}:${e.line}: descent ${JSON.stringify(e.key)} leads back to ${target.rel}, a node on the way here`;
        problems.push(problem('REFERENCE_LOOP', label, msg, e.line));
        continue;
      }
      const known = leads.get(target.real);
      const ok = known ?? visit(target.real, target.rel, { node, entry: e });
      if (ok) any = true;
      // A node that failed to load carries its own problem; a loaded one that leads nowhere is a dead end.
      else if (loaded.has(target.real))
        dead(e, `leads to ${target.rel}, where no entry reaches a skill`);
    }
    onPath.delete(real);
    leads.set(real, any);
    return any;
  };

  visit(ctx.rootReal, '.', undefined);
  return { nodes, reached, problems, rootIndexed };
}
