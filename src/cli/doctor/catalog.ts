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
  try {
    const s = router.getCatalogStatus({ catalog });
    if (!s.published)
      return {
        id: 'catalog',
        status: 'fail',
        message: `${catalog} has no published generation`,
        fix: hintOf('CATALOG_EMPTY'),
      };
    if (s.drifted.length > 0)
      return {
        id: 'catalog',
        status: 'fail',
        message: `${s.drifted.length} file(s) changed or vanished since the last index of ${catalog} (${s.drifted
          .slice(0, 3)
          .map((d) => `${d.reason} ${sanitizeField(d.path, 200)}`)
          .join(', ')}${s.drifted.length > 3 ? ', …' : ''})`,
        fix: 'skilldex index',
      };
    const added = notIndexed(indexCatalog(), catalog, scopes, home);
    if (added.length > 0)
      return {
        id: 'catalog',
        status: 'fail',
        message: `${added.length} skill(s) in the library are not in ${catalog} yet, so no prompt is offered them (${added
          .slice(0, 3)
          .map((a) => sanitizeField(a, 200))
          .join(', ')}${added.length > 3 ? ', …' : ''})`,
        fix: 'skilldex index',
      };
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
        return {
          id: 'catalog',
          status: 'fail',
          message: `${err.code}: ${err.message}, while the library ${scopes.join(', ')} holds ${waiting.length} skill(s) to index (${waiting
            .slice(0, 3)
            .map((a) => sanitizeField(a, 200))
            .join(', ')}${waiting.length > 3 ? ', …' : ''})`,
          fix: 'skilldex index (it indexes the library into this catalog); if init left the prompt hook out for want of skills, run skilldex init again instead: it indexes them and installs the hook',
        };
      return {
        id: 'catalog',
        status: 'fail',
        message: `${err.code}: ${err.message} (the library ${scopes.join(', ')} holds no skill yet)`,
        fix: `add skill folders (each with a SKILL.md) to ${scopes[0]}, then run skilldex init again (it indexes them and installs the prompt hook)`,
      };
    }
    if (isSkilldexError(err))
      return {
        id: 'catalog',
        status: 'fail',
        message: `${err.code}: ${err.message}`,
        fix: err.hint,
      };
    throw err;
  }
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
