/**
 * The skilldex version: the `version` field of the package's own package.json, read once when this
 * module loads (from src/ in tests, from dist/ when installed: package.json is one folder up from
 * both). The CLI's `--version` and the MCP server's `serverInfo.version` print it; no other file
 * spells the version.
 */
import { readFileSync } from 'node:fs';

function readPackageVersion(): string {
  const url = new URL('../package.json', import.meta.url);
  const pkg: unknown = JSON.parse(readFileSync(url, 'utf8'));
  const version = typeof pkg === 'object' && pkg !== null && 'version' in pkg ? pkg.version : undefined;
  // A missing or odd version means a broken install, not a user error: fail loudly at load.
  if (typeof version !== 'string' || !/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?$/.test(version)) {
    throw new Error(`skilldex: ${url.pathname} has no valid "version" field`);
  }
  return version;
}

/** The package version (semver, from package.json). */
export const VERSION: string = readPackageVersion();
