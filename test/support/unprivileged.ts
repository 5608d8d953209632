/**
 * Test support: run part of the built library as the unprivileged user `nobody` (uid 65534), for
 * tests about permission bits, which root ignores. That user must be able to reach the module it
 * runs and the tree it reads. When the repository sits below a folder `nobody` cannot enter (npm
 * test run as root from a temporary folder of mode 0700), the module is bundled (esbuild, with its
 * packages) into a folder of its own under the system temporary folder, where it can; when the
 * tree itself cannot be reached, the test is skipped, saying which folder blocks it.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';

/** The unprivileged user and group the tests run as. */
export const NOBODY = 65534;

/**
 * The first folder on the way to `p` (itself included when a folder) that others may not enter,
 * or undefined when `nobody` can reach `p` by the permission bits of others.
 */
export function blockedFolder(p: string): string | undefined {
  let dir = path.resolve(p);
  const chain: string[] = [];
  for (;;) {
    chain.unshift(dir);
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  for (const d of chain) {
    let st;
    try {
      st = statSync(d);
    } catch {
      return d;
    }
    if (st.isDirectory() && (st.mode & 0o001) === 0) return d;
  }
  return undefined;
}

const bundles = new Map<string, string>();

// `module` bundled with its packages into a file `nobody` can read (made once per process).
function reachableModule(module: string): string {
  if (blockedFolder(path.dirname(module)) === undefined) return module;
  const done = bundles.get(module);
  if (done !== undefined) return done;
  const dir = mkdtempSync(path.join(tmpdir(), 'skilldex-nobody-'));
  chmodSync(dir, 0o755);
  const out = path.join(dir, 'module.mjs');
  buildSync({
    entryPoints: [module],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    logLevel: 'silent',
    // Packages written as CommonJS call require(): give the bundle one.
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  });
  chmodSync(out, 0o644);
  bundles.set(module, out);
  return out;
}

/** What a run as `nobody` gave: its JSON result, or why it could not run. */
export type NobodyRun<T> = { ok: true; value: T } | { ok: false; skip: string };

/**
 * Imports `module` (a built file, e.g. dist/fsx/index.js) as `nobody` and prints the JSON of
 * `expression`, in which the module is `m`; `data` is the tree the run reads. Skips (with the
 * reason) when `nobody` cannot reach `data`; throws with the child's stderr when the run fails.
 */
export function runAsNobody<T>(module: string, expression: string, data: string): NobodyRun<T> {
  if (!existsSync(module))
    throw new Error(`${module} does not exist: run npm run build before these tests`);
  const blocked = blockedFolder(data);
  if (blocked !== undefined)
    return {
      ok: false,
      skip: `uid ${NOBODY} cannot enter ${blocked} (mode ${(statSync(blocked).mode & 0o777).toString(8)}), on the way to the test tree ${data}: set TMPDIR to a folder others may enter`,
    };
  const target = reachableModule(module);
  const script =
    `const m = await import(${JSON.stringify(pathToFileURL(target).href)});` +
    `process.stdout.write(JSON.stringify(${expression}));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    uid: NOBODY,
    gid: NOBODY,
    cwd: '/',
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (r.status !== 0)
    throw new Error(`the run as uid ${NOBODY} of ${target} failed (exit ${r.status}): ${r.stderr}`);
  return { ok: true, value: JSON.parse(r.stdout) as T };
}
