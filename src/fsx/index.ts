/** Public surface of src/fsx: every file access of skilldex goes through these functions. */
export {
  isInside,
  isInsideAny,
  lstatOrUndefined,
  realpathOrUndefined,
  resolveInside,
  statOrUndefined,
  toPosixRelative,
} from './resolve.js';
export {
  DEFAULT_MAX_SKILL_BYTES,
  errCode,
  readBytesCapped,
  readFirstBytes,
  readTextCapped,
  sha256Hex,
  sha256Of,
  type RefusedFile,
} from './read.js';
export {
  DEFAULT_MAX_FILE_BYTES,
  DEFAULT_MAX_HEAD_BYTES,
  readHeadHashed,
  readPrefixUntil,
  type PrefixText,
  type FileIdentity,
  type HeadFile,
  type HeadOptions,
} from './read-head.js';
export {
  DEFAULT_WALK_OPTIONS,
  SKIPPED_DIRS,
  walkFiles,
  type WalkOptions,
  type WalkResult,
  type WalkedFile,
} from './walk.js';
export { ownedByAnotherUser, projectAncestors } from './project-walk.js';
export { removeInside, writeInside } from './write.js';
export { xdgBaseDir } from './xdg.js';
