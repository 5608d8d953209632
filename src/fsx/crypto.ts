/**
 * `node:crypto`, loaded on first use rather than with the module graph. Loading it costs some 6 ms
 * of a fresh process on this machine (it pulls in Node's stream machinery), and most one-shot
 * commands (`--help`, `--version`, `search`) never hash or draw random bytes: the CLI's start-up
 * budget (bench/results/startup.md) is the reason this file exists.
 */
import { createRequire } from 'node:module';
import type * as NodeCrypto from 'node:crypto';

let loaded: typeof NodeCrypto | undefined;

/** The `node:crypto` module, required on the first call and kept. */
export function nodeCrypto(): typeof NodeCrypto {
  loaded ??= createRequire(import.meta.url)('node:crypto') as typeof NodeCrypto;
  return loaded;
}
