/**
 * init's `index` step: planned from a dry run of the indexer (`unchanged` when nothing would
 * change, `skip` for an empty library, else `run`); applied, it indexes the library, publishes the
 * catalog and keeps the index report for init's own report. An empty library is a note, not a
 * failure.
 */
import { isSkilldexError } from '../../errors.js';
import type { IndexReport, indexCatalog as IndexCatalog } from '../../internal.js';
import { exists } from './files.js';
import type { InitStep, PlannedStep } from './steps.js';

// The index step: planned from a dry run (`unchanged` when nothing would change, `skip` for an
// empty library, else `run`); applied, it indexes and publishes, and reports what happened.
export function indexStep(
  indexCatalog: typeof IndexCatalog,
  catalog: string,
  scopes: readonly string[],
  home: string,
  cwd: string,
  move: { names: string[] } | undefined,
): { planned: PlannedStep; report: () => IndexReport | null; notes: string[] } {
  const library = scopes.join(', ');
  const step = (action: InitStep['action'], detail: string): InitStep => ({
    step: 'index',
    action,
    target: catalog,
    detail,
  });
  const notes: string[] = [];
  let report: IndexReport | null = null;
  let result: InitStep | undefined;
  const options = { catalog, scopes, home, project: cwd };
  const apply = (): [] => {
    try {
      report = indexCatalog(options);
      const changed = report.publish === null || report.publish.changed;
      result = changed
        ? step('run', `indexed ${library} and published generation ${report.publish?.seq ?? '—'}`)
        : step('unchanged', `the catalog already holds the skills of ${library}`);
    } catch (err) {
      // An empty library is the usual state right after a first init: say what to do, do not fail.
      if (!isSkilldexError(err) || err.code !== 'NO_SKILLS_FOUND') throw err;
      result = step('skip', `the library ${library} holds no skill yet`);
      notes.push(
        `The library ${library} holds no skill yet: add skill folders (each with a SKILL.md) to it, then run skilldex init again: it indexes them and installs the prompt hook it left out (skilldex index alone indexes them, with no hook).`,
      );
    }
    return [];
  };
  let planned: InitStep = step('run', `index ${library} into the catalog and publish`);
  if ((move === undefined || move.names.length === 0) && !scopes.some((d) => exists(d)))
    planned = step('skip', `the library ${library} is empty: nothing to index yet`);
  else if (move === undefined || move.names.length === 0) {
    const dry = indexCatalog({ ...options, scopes: scopes.filter((d) => exists(d)), dryRun: true });
    if (dry.added.length + dry.changed.length + dry.removed.length === 0)
      planned =
        dry.unchanged > 0
          ? step(
              'unchanged',
              `the catalog already holds the ${dry.unchanged} skill(s) of ${library}`,
            )
          : step('skip', `the library ${library} holds no skill yet: nothing to index`);
  }
  return {
    planned: { step: planned, apply, result: () => result ?? planned },
    report: () => report,
    notes,
  };
}
