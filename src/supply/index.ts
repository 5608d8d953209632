/** Public surface of src/supply: lock files, verify, diff (issue #28). Explicit named exports only. */
export {
  diffGenerations,
  diffSkill,
  generationDiffOf,
  type BodyDiff,
  type DiffSide,
  type FieldChange,
  type FileChange,
  type GenerationDiffReport,
  type GenerationMember,
  type SkillDiffOptions,
  type SkillDiffReport,
} from './diff.js';
export { stripCredentials } from './git.js';
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
export { parseLock, readLockFile, type LockFormat, type ParsedLock } from './lock-read.js';
export { skillsLockHash } from './skills-lock-hash.js';
export {
  VERIFY_CODES,
  checkLock,
  compareToLock,
  verifyLock,
  type VerifyCode,
  type VerifyFileChange,
  type VerifyFinding,
  type VerifyOptions,
  type VerifyReport,
} from './verify.js';
