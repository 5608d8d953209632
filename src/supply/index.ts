/** Public surface of src/supply: lock files, verify, diff (issue #28). Explicit named exports only. */
export { canonicalJson, sameJson, sortKeys } from './canonical-json.js';
export {
  diffGenerations,
  diffSkill,
  fieldChanges,
  generationDiffOf,
  skillDiffOf,
  type BodyDiff,
  type DiffSide,
  type FieldChange,
  type FileChange,
  type GenerationDiffReport,
  type GenerationMember,
  type SkillDiffOptions,
  type SkillDiffReport,
} from './diff.js';
export { GitOrigins, stripCredentials, type GitOrigin } from './git.js';
export {
  DEFAULT_LOCK_FILE,
  LOCK_VERSION,
  buildLock,
  lockOf,
  type LockOptions,
  type LockReport,
  type LockedSkill,
  type SkillsLock,
} from './lock.js';
export {
  MAX_LOCK_BYTES,
  parseLock,
  readLockFile,
  type LockFormat,
  type LockedEntry,
  type ParsedLock,
} from './lock-read.js';
export { skillsLockHash } from './skills-lock-hash.js';
export {
  lockPathOf,
  snapshotLibrary,
  type CurrentSkill,
  type LibrarySnapshot,
} from './snapshot.js';
export {
  VERIFY_CODES,
  checkLock,
  compareToLock,
  verifyLock,
  type FolderView,
  type VerifyCode,
  type VerifyFileChange,
  type VerifyFinding,
  type VerifyOptions,
  type VerifyReport,
} from './verify.js';
