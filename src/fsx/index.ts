/** Public surface of src/fsx: every file access of skilldex goes through these functions. */
export {
  isInside,
  isInsideAny,
  realpathOrUndefined,
  resolveInside,
  toPosixRelative,
} from './resolve.js';
export {
  DEFAULT_MAX_SKILL_BYTES,
  errCode,
  readBytesCapped,
  readTextCapped,
  sha256Hex,
  sha256Of,
  type RefusedFile,
} from './read.js';
export { walkFiles, type WalkResult } from './walk.js';
export { writeInside } from './write.js';
