#!/usr/bin/env node
// @ts-check
/**
 * The command line's entry (issue #12): loads the bundled CLI, `dist/cli/skilldex.cjs`
 * (scripts/build-cli.mjs), compiled with the V8 code cache the build wrote beside it
 * (`skilldex.cjs.v8cache`), runs it and turns its answer into an exit code. A one-shot command's
 * time is mostly start-up, and on Node 20 most of that was loading modules: resolving and compiling
 * some 120 ES modules, and the ESM loader's CommonJS interop for commander and better-sqlite3, cost
 * a fresh `search` over 4× a bare `node -e 0` (bench/results/startup.md has the figures). One
 * CommonJS file, its bytecode read from the cache instead of compiled, removes most of it.
 *
 * This file is CommonJS (bin/package.json): an ES module entry alone costs ~10 ms of every start,
 * and a second file for the loader ~0.8 ms, so the loader lives here; scripts/cli-cache.cjs and
 * the tests require it (`require.main` is then another module, and nothing runs). Type-checked
 * through tsconfig.bin.json.
 *
 * The cache holds bytecode for the Node build and flags that made it: any other Node rejects it
 * (`cache: 'rejected'`) and the bundle compiles from source, slower and otherwise the same. This
 * file never writes anything; the build writes the cache (scripts/cli-cache.cjs).
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

/**
 * What the bundle exports (src/cli/main.ts and src/cli/program.ts): `main` runs the CLI on this
 * process's streams, `run` on the given I/O (CliIo in src/cli/context.ts); both resolve to the
 * exit code.
 * @typedef {{ main: (argv: readonly string[]) => Promise<number>, run: (argv: readonly string[], io: unknown) => Promise<number> }} CliBundle
 */

/**
 * The loaded bundle, its compiled script (the build makes the cache from it) and the cache's fate:
 * `accepted` (bytecode from the cache), `rejected` (another Node made it) or `none` (no file).
 * @typedef {{ cli: CliBundle, script: vm.Script, cache: 'accepted' | 'rejected' | 'none' }} LoadedCli
 */

/** The bundle of this package. */
const BUNDLE = path.join(__dirname, '..', 'dist', 'cli', 'skilldex.cjs');

/**
 * The prompt hook's own bundle (src/cli/hook-main.ts, issue 35): `skilldex hook …`, which a host
 * runs on every prompt, loads this instead of the whole CLI — no commander, no other command — with
 * its own code cache. `hookMain` returns undefined for a command line it does not know for sure
 * (`--help`, `--strict`, an unknown option…): the full CLI then runs it.
 * @typedef {{ hookMain: (argv: readonly string[], handover?: { stdin: string, startedMs?: number, settled?: (s: { hook_server: { value: boolean } }) => void }) => Promise<number> | undefined }} HookBundle
 */
const HOOK_BUNDLE = path.join(__dirname, '..', 'dist', 'cli', 'hook.cjs');

/**
 * The hook server's client (src/cli/hook-client.ts): loaded first for `skilldex hook …`. It hands
 * the prompt to the user's hook server and prints the answer; when no server answers it runs the
 * hook bundle in this process (loadHook) and starts one. `hookClient` returns undefined for a
 * command line it leaves to the hook bundle.
 * @typedef {{ hookClient: (argv: readonly string[], options: { loadHook: () => HookBundle, bin: string, exit: (code: number) => void }) => Promise<number> | undefined }} HookClientBundle
 */
const HOOK_CLIENT_BUNDLE = path.join(__dirname, '..', 'dist', 'cli', 'hook-client.cjs');

/**
 * The code cache of `bundle`: the same path with `.v8cache` added.
 * @param {string} bundle
 * @returns {string}
 */
function cachePathOf(bundle) {
  return bundle + '.v8cache';
}

/**
 * Loads `bundle` as a CommonJS module (its own `require`, `module`, `__filename`, `__dirname`),
 * using the code cache beside it when there is one. `ownRequire`: the bundle requires only Node's
 * own modules, so this file's `require` serves it and node:module (which loads Node's ES module
 * loader, ~0.5 ms) is not needed: the hook server's client.
 * @param {string} [bundle]
 * @param {boolean} [ownRequire]
 * @returns {LoadedCli}
 */
function loadCli(bundle = BUNDLE, ownRequire = false) {
  // ASCII by construction (scripts/build-cli.mjs checks): latin1 gives V8 a one-byte string as is.
  const source = fs.readFileSync(bundle, 'latin1');
  /** @type {Buffer | undefined} */
  let cachedData;
  try {
    cachedData = fs.readFileSync(cachePathOf(bundle));
  } catch {
    // No cache (a build that skipped it, a copied bundle): compile from source.
    cachedData = undefined;
  }
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
    { filename: bundle, ...(cachedData ? { cachedData } : {}) },
  );
  const init =
    /** @type {(e: object, r: NodeJS.Require, m: { exports: object }, f: string, d: string) => void} */ (
      script.runInThisContext()
    );
  const mod = { exports: {} };
  init.call(
    mod.exports,
    mod.exports,
    ownRequire ? require : require('node:module').createRequire(bundle),
    mod,
    bundle,
    path.dirname(bundle),
  );
  return {
    cli: /** @type {CliBundle} */ (mod.exports),
    script,
    cache: cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted',
  };
}

/**
 * A failure while loading (a broken install) is reported with its stack, without the lines too
 * long to read: V8 puts the offending source line of a SyntaxError in the stack, and a line of the
 * bundle is most of the minified module.
 * @param {unknown} err
 */
function fail(err) {
  const text = err instanceof Error && err.stack ? err.stack : String(err);
  const lines = text.split('\n').filter((line) => line.length <= 400);
  process.stderr.write(`error INTERNAL: ${lines.slice(0, 40).join('\n')}\n`);
  process.exitCode = 70;
}

/**
 * Runs `skilldex hook …` through the hook server's client, which falls back to the hook's bundle
 * in this process; false when the client is absent (a build without it) or leaves the command line
 * to the hook's bundle.
 * @param {readonly string[]} argv
 * @returns {boolean}
 */
function runHookClient(argv) {
  /** @type {HookClientBundle} */
  let client;
  try {
    client = /** @type {HookClientBundle} */ (
      /** @type {unknown} */ (loadCli(HOOK_CLIENT_BUNDLE, true).cli)
    );
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT') return false;
    fail(err);
    return true;
  }
  const done = client.hookClient(argv, {
    loadHook: () => /** @type {HookBundle} */ (/** @type {unknown} */ (loadCli(HOOK_BUNDLE).cli)),
    bin: __filename,
    exit: (code) => process.exit(code),
  });
  if (done === undefined) return false;
  done.then((code) => {
    process.exitCode = code;
  }, fail);
  return true;
}

/**
 * Runs `skilldex hook …` through the hook's own bundle; false when that bundle is absent (a build
 * without it) or leaves the command line to the full CLI.
 * @param {readonly string[]} argv
 * @returns {boolean}
 */
function runHookBundle(argv) {
  /** @type {HookBundle} */
  let hook;
  try {
    hook = /** @type {HookBundle} */ (/** @type {unknown} */ (loadCli(HOOK_BUNDLE).cli));
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT') return false;
    fail(err);
    return true;
  }
  const done = hook.hookMain(argv);
  if (done === undefined) return false;
  done.then((code) => {
    process.exitCode = code;
  }, fail);
  return true;
}

if (
  require.main === module &&
  !(
    process.argv[2] === 'hook' &&
    (runHookClient(process.argv.slice(2)) || runHookBundle(process.argv.slice(2)))
  )
) {
  /** @type {CliBundle | undefined} */
  let cli;
  try {
    cli = loadCli().cli;
  } catch (err) {
    fail(err);
  }
  if (cli !== undefined)
    cli.main(process.argv.slice(2)).then((code) => {
      process.exitCode = code;
    }, fail);
}

module.exports = { BUNDLE, HOOK_BUNDLE, HOOK_CLIENT_BUNDLE, cachePathOf, loadCli };
