/** Public surface of src/text: pure text functions, no I/O. Explicit named exports only. */
export { compareStrings } from './compare.js';
export { escapeRegExp } from './regexp.js';
export { fold } from './normalize.js';
export { tokenize, contentTokens, distinctContentTokens } from './tokenize.js';
export { isStopWord } from './stop-words.js';
export { stem } from './stem.js';
export { boundedEditDistance } from './edit-distance.js';
export {
  findHiddenCharacters,
  findConfusables,
  findInstructionLike,
  escapeInvisible,
} from './flags.js';
export { analyzeTerms, analyzeTermsV4, identifierTokens } from './analyze.js';
export { cjkTerms, hasCjk } from './cjk.js';
export { splitBoundaries, splitQueryNegation } from './boundaries.js';
export { findClauses } from './clauses.js';
export { fnv1a, nameWords } from './template-lines.js';
export { analyseBodyLine } from './body-line.js';
export { jsonText, sanitizeBlock, sanitizeField } from './sanitize.js';
export { escapeBlockStart, markdownInline, markdownQuote } from './markdown.js';
export { diffLines, renderUnified, splitLines, unifiedHunks, type DiffHunk } from './line-diff.js';
export { blankJsonComments, jsonCommentAt, scanOutsideStrings } from './jsonc.js';
