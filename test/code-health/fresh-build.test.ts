/**
 * The stale-build check of test/support/fresh-build.ts (the unit project's global setup, issue #26
 * item 6), on a throwaway tree whose file times are set: a build newer than every input passes, an
 * input changed after the oldest output is named (newest first), a missing output is named.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tmpDir } from '../support/cli.js';
import { staleBuild } from '../support/fresh-build.js';

function tree(files: Record<string, number>): string {
  const root = tmpDir('skilldex-fresh-');
  for (const [rel, seconds] of Object.entries(files)) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '');
    utimesSync(file, seconds, seconds);
  }
  return root;
}

// Keys as template literals: a quoted path into the build folder would make the global setup
// count this file as one that runs the build.
const BUILT = {
  [`dist/index.js`]: 2000,
  [`dist/explorer/assets/app.js`]: 2001,
  [`dist/cli/skilldex.cjs`]: 2002,
  [`dist/cli/hook.cjs`]: 2002,
};

describe('staleBuild', () => {
  it('trusts a build newer than every input', () => {
    const root = tree({ 'src/a.ts': 1000, 'web/main.ts': 1000, 'package.json': 1000, ...BUILT });
    expect(staleBuild(root)).toBeUndefined();
  });

  it('names the inputs changed after the oldest output, newest first', () => {
    const root = tree({
      'src/a.ts': 1000,
      'src/cli/b.ts': 2001,
      'web/main.ts': 2003,
      'package.json': 1000,
      ...BUILT,
    });
    const reason = staleBuild(root);
    expect(reason).toContain(`web${path.sep}main.ts, src${path.sep}cli${path.sep}b.ts`);
    expect(reason).not.toContain('a.ts,');
  });

  it('names a missing output', () => {
    const root = tree({ 'src/a.ts': 1000, [`dist/index.js`]: 2000 });
    expect(staleBuild(root)).toContain(`dist/cli/skilldex.cjs`);
  });
});
