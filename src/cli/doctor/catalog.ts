/**
 * doctor's `catalog` check: the catalog the settings name exists, has a published generation, and
 * no indexed file changed or vanished since the last index.
 */
import { isSkilldexError } from '../../errors.js';
import { sanitizeField } from '../../text/index.js';
import { hintOf, type DoctorCheck } from './check.js';

/** The `catalog` check of `catalog`. */
export async function catalogCheck(catalog: string): Promise<DoctorCheck> {
  try {
    const { getCatalogStatus } = await import('../../router/index.js');
    const s = getCatalogStatus({ catalog });
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
    return {
      id: 'catalog',
      status: 'ok',
      message: `${catalog}: generation ${s.published.seq}, ${s.working.active} active skill(s), no drift`,
    };
  } catch (err) {
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
