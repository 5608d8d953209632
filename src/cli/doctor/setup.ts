/**
 * doctor's checks of what `skilldex init` recorded: the `init` check (init's record file reads and
 * names the clients it set up), the clients in that record, and the `router-skill.<client>` checks
 * (each router skill init installed is still there).
 */
import { existsSync } from 'node:fs';
import { isSkilldexError } from '../../errors.js';
import { CLIENTS, type Client } from '../init/clients.js';
import { readRecords, recordPath, type UndoRecord } from '../init/record.js';
import { initFix, type DoctorCheck, type DoctorOptions } from './check.js';

/** The clients init set up (from its records), in CLIENTS order, plus any others it recorded. */
export function clientsOf(records: readonly UndoRecord[]): string[] {
  const seen = new Set(records.map((r) => r.client));
  return [
    ...CLIENTS.filter((c) => seen.has(c)),
    ...[...seen].filter((c) => !CLIENTS.includes(c as Client)).sort(),
  ];
}

/** The `init` check (init's record file reads and names clients), with the records it read. */
export function initCheck(o: DoctorOptions): { check: DoctorCheck; records: UndoRecord[] } {
  const recordFile = recordPath(o.env, o.home);
  let records: UndoRecord[] = [];
  try {
    records = readRecords(recordFile);
    if (records.length === 0)
      return {
        records,
        check: {
          id: 'init',
          status: 'fail',
          message: `skilldex init has set nothing up on this machine (no ${recordFile})`,
          fix: 'skilldex init --yes (or --client claude-code|codex|cursor)',
        },
      };
    return {
      records,
      check: {
        id: 'init',
        status: 'ok',
        message: `skilldex init set up: ${clientsOf(records).join(', ')}`,
      },
    };
  } catch (err) {
    return {
      records,
      check: {
        id: 'init',
        status: 'fail',
        message: isSkilldexError(err) ? `${err.code}: ${err.message}` : String(err),
        fix: isSkilldexError(err) ? err.hint : `remove ${recordFile} and run skilldex init again`,
      },
    };
  }
}

/** The `router-skill.<client>` checks, with whether each installed router skill is still there. */
export function routerSkillChecks(
  clients: readonly string[],
  records: readonly UndoRecord[],
): { checks: DoctorCheck[]; routerOf: Map<string, boolean> } {
  const checks: DoctorCheck[] = [];
  const routerOf = new Map<string, boolean>();
  for (const client of clients) {
    const rec = records.find((r) => r.client === client && r.step === 'router-skill');
    const id = `router-skill.${client}`;
    if (!rec) {
      if (client !== 'generic')
        checks.push({
          id,
          status: 'skip',
          message: `init installed no router skill for ${client}`,
        });
      continue;
    }
    const ok = existsSync(rec.file);
    routerOf.set(client, ok);
    checks.push(
      ok
        ? { id, status: 'ok', message: `installed at ${rec.file}` }
        : {
            id,
            status: 'fail',
            message: `the router skill init installed at ${rec.file} is gone`,
            fix: initFix(client),
          },
    );
  }
  return { checks, routerOf };
}
