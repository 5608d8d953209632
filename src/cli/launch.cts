/**
 * Start-up of the command line (issue #12): loads the bundled CLI, `dist/cli/skilldex.cjs`
 * (scripts/build-cli.mjs), compiled with the V8 code cache the build wrote beside it
 * (`skilldex.cjs.v8cache`), and hands back its `main` and `run`. A one-shot command's time is
 * mostly start-up, and on Node 20 most of that is loading modules: resolving and compiling some
 * 120 ES modules, and the ESM loader's CommonJS interop for commander and better-sqlite3, cost a
 * fresh `search` over 5× a bare `node -e 0` (bench/results/startup.md has the figures before and
 * after). One CommonJS file, its bytecode read from the cache instead of compiled, removes most of it.
 *
 * The cache holds bytecode for the Node build and flags that made it: any other Node rejects it
 * (`cache: 'rejected'`) and the bundle compiles from source, slower and otherwise the same. This
 * file never writes anything; the build writes the cache (scripts/cli-cache.cjs).
 */
// CommonJS TypeScript (`import x = require`, `export =`): under verbatimModuleSyntax a .cts file
// cannot use ES import syntax.
import fs = require('node:fs');
import nodeModule = require('node:module');
import path = require('node:path');
import vm = require('node:vm');

/** What the bundle exports (src/cli/main.ts and src/cli/program.ts). */
interface CliBundle {
  /** Runs the CLI on this process's streams; resolves to the exit code. */
  readonly main: (argv: readonly string[]) => Promise<number>;
  /** Runs the CLI on the given I/O (see CliIo in src/cli/context.ts); resolves to the exit code. */
  readonly run: (argv: readonly string[], io: unknown) => Promise<number>;
}

/** The loaded bundle, its compiled script (the build makes the cache from it) and the cache's fate. */
interface LoadedCli {
  readonly cli: CliBundle;
  readonly script: vm.Script;
  /** `accepted`: bytecode came from the cache; `rejected`: another Node made it; `none`: no file. */
  readonly cache: 'accepted' | 'rejected' | 'none';
}

/** The bundle beside this file. */
const BUNDLE = path.join(__dirname, 'skilldex.cjs');

/** The code cache of `bundle`: the same path with `.v8cache` added. */
function cachePathOf(bundle: string): string {
  return bundle + '.v8cache';
}

/**
 * Loads `bundle` as a CommonJS module (its own `require`, `module`, `__filename`, `__dirname`),
 * using the code cache beside it when there is one.
 */
function loadCli(bundle: string = BUNDLE): LoadedCli {
  // ASCII by construction (scripts/build-cli.mjs checks): latin1 gives V8 a one-byte string as is.
  const source = fs.readFileSync(bundle, 'latin1');
  let cachedData: Buffer | undefined;
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
  const init = script.runInThisContext() as (
    exports: object,
    require: NodeJS.Require,
    module: { exports: object },
    filename: string,
    dirname: string,
  ) => void;
  const mod = { exports: {} };
  init.call(
    mod.exports,
    mod.exports,
    nodeModule.createRequire(bundle),
    mod,
    bundle,
    path.dirname(bundle),
  );
  return {
    cli: mod.exports as CliBundle,
    script,
    cache: cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted',
  };
}

export = { BUNDLE, cachePathOf, loadCli };
