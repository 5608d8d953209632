/**
 * The part of src/hook the hook server's client loads (src/cli/hook-client.ts): names, limits and
 * paths, none of the router. Everything here is also exported by index.ts.
 */
export { DEFAULT_HOOK_DEADLINE_MS, HOOK_HOSTS, MAX_HOOK_INPUT_BYTES } from './input.js';
export {
  HOOK_SERVER_NODE_FLAGS,
  HOOK_SERVER_PROTOCOL,
  asHookServerAnswer,
  hookServerDir,
  hookServerSocket,
  hookStateDir,
  isPrivateDir,
  type HookServerRequest,
} from './server-socket.js';
