/**
 * doctor's `catalog` check: the catalog the settings name exists, has a published generation, and
 * no indexed file changed or vanished since the last index.
 */
import { existsSync } from 'node:fs';
import { isSkilldexError } from '../../errors.js';
import type { indexCatalog as IndexCatalog } from '../../internal.js';
import { sanitizeField } from '../../text/index.js';
import { hintOf, type DoctorCheck } from './check.js';

/**
 * The `catalog` check of `catalog`; `scopes` (the library folders the settings name) are also
 * read as `index --dry-run` reads them, for skill folders added since the last index, which the
 * catalog's own drift cannot know about (issue 35: a new skill the hook never offers).
 */
export async function catalogCheck(
  catalog: string,
  scopes: readonly string[] = [],
  home?: string,
): Promise<DoctorCheck> {
  const router = await import('../../router/index.js');
  const indexCatalog = (): typeof IndexCatalog => router.indexCatalog;
  const fail = (message: string, fix: string): DoctorCheck => ({
    id: 'catalog',
    status: 'fail',
    message,
    fix,
  });
  try {
    const s = router.getCatalogStatus({ catalog });
    if (!s.published)
      return fail(`${catalog} has no published generation`, hintOf('CATALOG_EMPTY'));
    if (s.drifted.length > 0)
      return fail(
        `${s.drifted.length} file(s) changed or vanished since the last index of ${catalog} (${firstThree(
          s.drifted,
          (d) => `${d.reason} ${sanitizeField(d.path, 200)}`,
        )})`,
        'skilldex index',
      );
    const added = notIndexed(indexCatalog(), catalog, scopes, home);
    if (added.length > 0)
      return fail(
        `${added.length} skill(s) in the library are not in ${catalog} yet, so no prompt is offered them (${firstThree(added, (a) => sanitizeField(a, 200))})`,
        'skilldex index',
      );
    return {
      id: 'catalog',
      status: 'ok',
      message: `${catalog}: generation ${s.published.seq}, ${s.working.active} active skill(s), no drift`,
    };
  } catch (err) {
    // No catalog after init. Either the configured library held no skill then (init indexed
    // nothing and installed no hook): the fix is skills there and init again; or it holds skills
    // the catalog does not have (the catalog was removed, or skills came after an empty init):
    // the fix is an index, not "add skills" (issue 35). Never the generic hint.
    if (isSkilldexError(err) && err.code === 'CATALOG_MISSING' && scopes.length > 0) {
      const waiting = notIndexed(indexCatalog(), catalog, scopes, home);
      if (waiting.length > 0)
        return fail(
          `${err.code}: ${err.message}, while the library ${scopes.join(', ')} holds ${waiting.length} skill(s) to index (${firstThree(waiting, (a) => sanitizeField(a, 200))})`,
          'skilldex index (it indexes the library into this catalog); if init left the prompt hook out for want of skills, run skilldex init again instead: it indexes them and installs the hook',
        );
      return fail(
        `${err.code}: ${err.message} (the library ${scopes.join(', ')} holds no skill yet)`,
        `add skill folders (each with a SKILL.md) to ${scopes[0]}, then run skilldex init again (it indexes them and installs the prompt hook)`,
      );
    }
    if (isSkilldexError(err)) return fail(`${err.code}: ${err.message}`, err.hint);
    throw err;
  }
}

// The first three of `items` as `show` prints them, joined by commas, and `…` when there are more.
function firstThree<T>(items: readonly T[], show: (item: T) => string): string {
  return `${items.slice(0, 3).map(show).join(', ')}${items.length > 3 ? ', …' : ''}`;
}

// The skills an index of `scopes` would add (a dry run: nothing is written); none when the scopes
// cannot be read as a library (the published check above speaks for the catalog).
function notIndexed(
  indexCatalog: typeof IndexCatalog,
  catalog: string,
  scopes: readonly string[],
  home: string | undefined,
): string[] {
  const dirs = scopes.filter((d) => existsSync(d));
  if (dirs.length === 0) return [];
  try {
    const dry = indexCatalog({
      catalog,
      scopes: dirs,
      dryRun: true,
      ...(home !== undefined ? { home } : {}),
    });
    return [...dry.added];
  } catch (err) {
    if (isSkilldexError(err)) return [];
    throw err;
  }
}
