/**
 * Public surface of src/http: the request guard, token reading and binding shared by the two HTTP
 * servers (`src/mcp`, `src/explorer`). Below both faces, not part of the library API. Explicit
 * named exports only.
 */
export {
  bearerOf,
  checkRequest,
  hostOf,
  isLoopback,
  sameSecret,
  type GuardConfig,
  type GuardHeaders,
} from './guard.js';
export { MIN_TOKEN_CHARS, assertTokenLength, readToken } from './token.js';
export { baseUrlOf, bindAddress, listen } from './listen.js';
