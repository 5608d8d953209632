/**
 * Where this skilldex's `bin/skilldex.js` is: what `claude mcp add` must run. Computed from this
 * file's place, which is the CLI bundle's depth (src/cli/bin-path.ts, dist/cli/skilldex.cjs), as
 * init.ts does for its own PACKAGE_ROOT.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's bin. */
export const SKILLDEX_BIN = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'bin',
  'skilldex.js',
);
