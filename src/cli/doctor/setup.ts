/**
 * doctor's checks of what `skilldex init` recorded: the `init` check (init's record file reads and
 * names the clients it set up), the clients in that record, the `router-skill.<client>` checks
 * (each router skill init installed is still there) and the `library` check (the library holds every
 * folder those clients load skills from).
 */
import { existsSync } from 'node:fs';
import { isSkilldexError } from '../../errors.js';
import { CLIENTS, clientPaths, type Client } from '../init/clients.js';
import { foldersLeftOut, leftOutFix } from '../init/library.js';
import { pluginSkillFolders } from '../init/plugins.js';
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

/**
 * The `library` check: every folder the clients init set up load skills from (their own folders,
 * Claude Code's enabled plugins) is in the configured library, since the hook and skill_search never
 * name a skill outside it while the host goes on listing it. `warn` naming the folders and the fix;
 * none without a configured library of the user's own (doctor --catalog, no config, or a project
 * config's library).
 */
export async function libraryCheck(
  o: DoctorOptions,
  clients: readonly string[],
): Promise<DoctorCheck[]> {
  const scopes = o.scopes;
  const known = CLIENTS.filter((c) => clients.includes(c));
  if (scopes === undefined || scopes.length === 0 || known.length === 0) return [];
  // A project's library is that project's: the personal folders are not meant to be in it.
  if (o.scopesSource?.startsWith('project ') === true) return [];
  const { resolvePluginScopes } = await import('../../skills/index.js');
  const left = known.flatMap((c) =>
    foldersLeftOut(
      scopes,
      clientPaths(c, o.home, o.env).native,
      pluginSkillFolders(c, o.home, resolvePluginScopes),
    ).map((x) => ({ ...x, client: c })),
  );
  const seen = new Set<string>();
  const unique = left.filter((x) => !seen.has(x.dir) && seen.add(x.dir));
  if (unique.length === 0)
    return [
      {
        id: 'library',
        status: 'ok',
        message: `the library (${scopes.join(', ')}) holds every folder ${known.join(', ')} ${known.length > 1 ? 'load' : 'loads'} skills from`,
      },
    ];
  return [
    {
      id: 'library',
      status: 'warn',
      message:
        `skills the host lists but skilldex never names: ${unique.map((x) => `${x.dir} (${x.skills}, ${x.client})`).join(', ')} ` +
        `lie outside the library (library.scopes = [${scopes.join(', ')}])`,
      fix: leftOutFix(unique),
    },
  ];
}
