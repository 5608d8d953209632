/** Public surface of src/fsx: every file access of skilldex goes through these functions. */
export {
  isInside,
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
  readHeadHashed,
  readPrefixUntil,
  type FileIdentity,
} from './read-head.js';
export { RACY_MS, SKIPPED_DIRS, walkFiles, type FolderListing, type WalkListings } from './walk.js';
export { ownedByAnotherUser, projectAncestors } from './project-walk.js';
export { removeInside, writeInside } from './write.js';
export { xdgBaseDir } from './xdg.js';
export { nodeCrypto } from './crypto.js';
