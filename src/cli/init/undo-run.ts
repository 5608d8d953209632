/**
 * `skilldex init --undo` (docs/init.md): removes exactly what init recorded (init/undo.ts plans it),
 * says what it leaves (listing controls, the library, the catalog and what was learned), removes the
 * folders init made once empty, and, when no hook init installed is left, ends the hook servers the
 * removed hooks started (docs/hosts.md, "The hook server") rather than leaving them to end when idle.
 */
import path from 'node:path';
import type { CliContext } from '../context.js';
import { CLIENTS, clientPaths, ROUTER_FOLDER, type Client } from './clients.js';
import {
  checkRecordTargets,
  readRecords,
  recordPath,
  removeCreatedFolders,
  writeRecords,
} from './record.js';
import type { InitFlags, UndoReport } from './report.js';
import { planUndo } from './undo.js';

/** The undo `init --undo` runs for `client` (or every client), applied with `--yes`. */
export async function runUndoCommand(
  ctx: CliContext,
  o: InitFlags,
  client: Client | 'all',
  home: string,
): Promise<UndoReport> {
  const hosts = await import('../../hosts/index.js');
  const report = runUndo(
    ctx,
    o,
    client,
    (host) => {
      try {
        const dir = hosts.listingStateDir(home, ctx.io.env);
        const state = hosts.readListingState(dir, host);
        if (state === undefined) return undefined;
        const n =
          host === 'claude-code'
            ? Object.keys(hosts.controlsOf(state)).length
            : (state.paths ?? []).length;
        return n > 0 ? { n, file: state.file } : undefined;
      } catch {
        return undefined; // An unreadable listing state: listing --undo names it.
      }
    },
    home,
  );
  // The servers serve the hooks: once no hook init installed is left (every client undone, at
  // once or one by one), nothing would ask them again.
  const hooksLeft = hookRecorded(recordPath(ctx.io.env, home));
  const stopped =
    report.applied && (client === 'all' || !hooksLeft) ? await stopHookServers(ctx, home) : [];
  if (stopped.length === 0) return report;
  return {
    ...report,
    notes: [
      ...report.notes,
      `stopped the hook server${stopped.length > 1 ? 's' : ''} (process ${stopped.join(', ')})`,
    ],
  };
}

// Whether init's record still holds a hook; true when it cannot be read (the undo is done: a
// record it cannot read again must not end servers a hook may still use).
function hookRecorded(record: string): boolean {
  try {
    return readRecords(record).some((r) => r.step === 'hook');
  } catch {
    return true;
  }
}

// Ends every hook server of this user; the processes it ended.
async function stopHookServers(ctx: CliContext, home: string): Promise<number[]> {
  const { hookServerDir, hookStateDir } = await import('../../hook/index.js');
  const { stopAllHookServers } = await import('../hook-server-control.js');
  const stopped = await stopAllHookServers(hookServerDir(hookStateDir(home, ctx.io.env)));
  return stopped.map((s) => s.pid);
}

type ListingLeft = (host: 'claude-code' | 'codex') => { n: number; file: string } | undefined;

function runUndo(
  ctx: CliContext,
  o: InitFlags,
  client: Client | 'all',
  listingLeft: ListingLeft,
  home: string,
): UndoReport {
  const record = recordPath(ctx.io.env, home);
  const apply = o.yes === true && o.dryRun !== true;
  const records = readRecords(record);
  // The record is untrusted input (issue 36 L9): only files init itself writes, else refused.
  const userConfig = ctx.configLayers().userPath;
  checkRecordTargets(record, records, (c, step) => {
    if (!(CLIENTS as readonly string[]).includes(c)) return [];
    const p = clientPaths(c as Client, home, ctx.io.env);
    const one = (f: string | undefined): string[] => (f === undefined ? [] : [f]);
    switch (step) {
      case 'config':
        return [userConfig];
      case 'router-skill':
        return one(
          p.skills === undefined ? undefined : path.join(p.skills, ROUTER_FOLDER, 'SKILL.md'),
        );
      case 'mcp':
        return one(p.mcp);
      case 'hook':
        return one(p.hooks);
      case 'move':
        return [];
    }
  });
  const plan = planUndo(records, client === 'all' ? undefined : [client], o.force === true);
  const notes: string[] = [];
  // Listing controls are listing's, not init's: undo leaves them, but they rely on the router skill
  // (and, user-invocable-only, the MCP server) this undo takes away (issue 35): say so first.
  for (const host of ['claude-code', 'codex'] as const) {
    if (client !== 'all' && client !== host) continue;
    if (!records.some((r) => r.client === host)) continue;
    const left = listingLeft(host);
    if (left !== undefined)
      notes.push(
        `skilldex listing --apply set ${left.n} skill(s) of ${host} to be routed (${left.file}): they rely on the router skill this undo removes (those out of the listing also on the MCP server), and init --undo leaves those controls. Take them back: skilldex listing --host ${host} --undo`,
      );
  }
  notes.push(...plan.notes);
  if (records.length === 0) notes.push(`init has recorded no change to undo (${record}).`);
  if (records.some((r) => r.shared) && !plan.keep.some((r) => r.shared))
    notes.push(
      "Undo leaves in place: the library (your skills), the catalog (their index) and the telemetry/usage store beside the catalog (<catalog>.telemetry.sqlite), which holds what skilldex learned from your prompts, prompt text included; also the prompt hook's session state and error log (~/.local/state/skilldex/hook) and the copies listing --apply kept (~/.local/share/skilldex/listing). " +
        'skilldex forget --all --purge erases what was learned; delete the catalog and the library by hand if you no longer want them.',
    );
  if (apply) {
    plan.apply();
    // The folders init made for what undo just removed, each once empty (deepest first).
    const kept = new Set(plan.keep.map((r) => JSON.stringify(r)));
    const removed = removeCreatedFolders(records.filter((r) => !kept.has(JSON.stringify(r))));
    if (removed.length > 0)
      notes.push(`Removed the empty folders init had made: ${removed.join(', ')}.`);
    if (plan.keep.length > 0 || records.length > 0) writeRecords(record, plan.keep);
  }
  return { undo: true, client, applied: apply, steps: plan.steps, notes, record };
}
