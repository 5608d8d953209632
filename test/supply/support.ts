/**
 * Test support for the supply-chain tests (lock, verify, diff): the library calls they use and a
 * lifecycle change with the fixed clock. Real files and catalogs only.
 */
import { changeLifecycle } from '../../src/router/index.js';
import { NOW } from '../catalog/support.js';

export {
  buildLock,
  checkLock,
  diffGenerations,
  diffSkill,
  parseLock,
  verifyLock,
} from '../../src/supply/index.js';
export { indexCatalog } from '../../src/router/index.js';

/** Deprecates `skillId` in `catalog` and publishes, with the tests' clock. */
export function deprecateSkill(catalog: string, skillId: string): void {
  changeLifecycle({ catalog, skill_id: skillId, to: 'deprecated', now: NOW });
}
