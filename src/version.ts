/**
 * The skilldex version: the `version` field of the package's own package.json, read once when this
 * module loads: the nearest package.json named "skilldex" at or above this module's folder's
 * parent (one folder up from src/ in tests and from dist/ when installed; two up from the
 * benchmarks' dist-bench/src/). The CLI's `--version` and the MCP server's `serverInfo.version` print it; no other file
 * spells the version. The CLI bundle (scripts/build-cli.mjs) has the same field written in at
 * build time as `__SKILLDEX_VERSION__`, which saves every start reading package.json (~0.7 ms).
 */
import { existsSync, readFileSync } from 'node:fs';

// The package's own package.json: the first one up the tree whose name is skilldex.
function packageJsonUrl(): URL {
  for (const rel of ['../package.json', '../../package.json', '../../../package.json']) {
    const url = new URL(rel, import.meta.url);
    if (!existsSync(url)) continue;
    const pkg: unknown = JSON.parse(readFileSync(url, 'utf8'));
    if (typeof pkg === 'object' && pkg !== null && 'name' in pkg && pkg.name === 'skilldex')
      return url;
  }
  throw new Error(`skilldex: no package.json named skilldex above ${import.meta.url}`);
}

function readPackageVersion(): string {
  const url = packageJsonUrl();
  const pkg: unknown = JSON.parse(readFileSync(url, 'utf8'));
  const version =
    typeof pkg === 'object' && pkg !== null && 'version' in pkg ? pkg.version : undefined;
  // A missing or odd version means a broken install, not a user error: fail loudly at load.
  if (typeof version !== 'string' || !/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?$/.test(version)) {
    throw new Error(`skilldex: ${url.pathname} has no valid "version" field`);
  }
  return version;
}

// Defined only inside the CLI bundle; elsewhere `typeof` finds no such global.
declare const __SKILLDEX_VERSION__: string | undefined;

/** The package version (semver, from package.json). */
export const VERSION: string =
  typeof __SKILLDEX_VERSION__ === 'string' ? __SKILLDEX_VERSION__ : readPackageVersion();

// Defined only inside the CLI's bundles: a hash of the sources they were built from.
declare const __SKILLDEX_BUILD__: string | undefined;

/**
 * The build of the CLI's bundles (12 hex digits of a hash over src/ and the version, written in by
 * scripts/build-cli.mjs), or undefined outside them. The hook server's socket is named by it, so a
 * client only ever talks to a server of its own build.
 */
export const BUILD: string | undefined =
  typeof __SKILLDEX_BUILD__ === 'string' ? __SKILLDEX_BUILD__ : undefined;
