/**
 * Vitest global setup (issue #26 item 6): refuses to start a run that would execute a stale build.
 * Some tests run the built code — `bin/skilldex.js` and its bundle `dist/cli/skilldex.cjs`, or a
 * module of `dist/` in a child process — and after an edit of `src/` (or `web/`, or the build
 * scripts) without `npm run build` they would pass or fail on the old code. When any selected test
 * file runs the build and a source file is newer than the build's oldest output, the run fails at
 * once, naming the newer files and the command that fixes it.
 *
 * It checks rather than builds: `npm test` builds first, so there the check costs a stat of each
 * source file and nothing more, and a run of tests that never touch `dist/` (most of the unit
 * suite) is never held up by a build. It never writes anything.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

const REPO = path.resolve(__dirname, '../..');

/** What `npm run build` reads: the sources of dist/, the explorer page, the build scripts. */
const INPUTS = ['src', 'web', 'scripts/build-page.mjs', 'scripts/build-cli.mjs', 'package.json'];

/** What it writes last of each step: tsc's library entry, the page, the CLI bundle. */
const OUTPUTS = [
  'dist/index.js',
  'dist/explorer/assets/app.js',
  'dist/cli/skilldex.cjs',
  'dist/cli/hook.cjs',
];

/**
 * A test file runs the build when it spawns the bin (`runBin`, `connectStdio`, `BIN`, a path
 * joined to `bin/skilldex.js`) or loads a file of `dist/`.
 */
const RUNS_BUILD =
  /\brunBin\(|\bconnectStdio\(|\bBIN\b|['"]bin['"],\s*['"]skilldex\.js['"]|['"]dist['"]|['"]dist\//;

/** Most stale files named in the failure; the rest are counted. */
const NAMED = 10;

function filesBelow(p: string): string[] {
  const st = statSync(p, { throwIfNoEntry: false });
  if (st === undefined) return [];
  if (!st.isDirectory()) return [p];
  return readdirSync(p, { withFileTypes: true })
    .filter((e) => e.name !== 'node_modules')
    .flatMap((e) => filesBelow(path.join(p, e.name)));
}

/**
 * Why the build in `repo` cannot be trusted, or undefined when it can: a missing output, or the
 * inputs modified after the oldest output (newest first).
 */
export function staleBuild(repo: string): string | undefined {
  const outputs = OUTPUTS.map((o) => ({
    o,
    st: statSync(path.join(repo, o), { throwIfNoEntry: false }),
  }));
  const missing = outputs.filter((x) => x.st === undefined).map((x) => x.o);
  if (missing.length > 0) return `the build is missing ${missing.join(', ')}`;
  const built = Math.min(...outputs.map((x) => x.st!.mtimeMs));
  const newer = INPUTS.flatMap((i) => filesBelow(path.join(repo, i)))
    .map((f) => ({ f: path.relative(repo, f), mtime: statSync(f).mtimeMs }))
    .filter((x) => x.mtime > built)
    .sort((a, b) => b.mtime - a.mtime);
  if (newer.length === 0) return undefined;
  const named = newer.slice(0, NAMED).map((x) => x.f);
  const more = newer.length > NAMED ? ` and ${newer.length - NAMED} more` : '';
  return `changed since the last build (${new Date(built).toISOString()}): ${named.join(', ')}${more}`;
}

export default async function setup(project: TestProject): Promise<void> {
  const reason = staleBuild(REPO);
  if (reason === undefined) return;
  // The run's file filters (`vitest run test/cli`): vitest keeps them on an internal field. Should
  // it go, every file of the project counts as selected — stricter, never wrong.
  const filters = (project.vitest as unknown as { filenamePattern?: string[] }).filenamePattern;
  const { testFiles } = await project.globTestFiles(filters);
  const running = testFiles.filter((f) => RUNS_BUILD.test(readFileSync(f, 'utf8')));
  if (running.length === 0) return;
  const some = running.slice(0, 5).map((f) => path.relative(REPO, f));
  throw new Error(
    `stale build: ${reason}. ${running.length} selected test file(s) run dist/ or bin/ ` +
      `(${some.join(', ')}${running.length > 5 ? ', …' : ''}): run npm run build first (npm test does).`,
  );
}
