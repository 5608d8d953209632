/**
 * The bundled CLI that bin/skilldex.js starts (scripts/build-cli.mjs, bin/skilldex.js; needs
 * `npm run build`): it answers as the source does, its code cache is accepted by the Node that
 * built it, a cache made by another Node only costs speed, and start-up leaves node:crypto and
 * node:child_process unloaded until a command needs them; the prompt hook answers without loading
 * the yaml package.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO, runCli } from '../support/cli.js';

const ENTRY = path.join(REPO, 'bin', 'skilldex.js');
const BUNDLE = path.join(REPO, 'dist', 'cli', 'skilldex.cjs');
const EXAMPLES = path.join(REPO, 'examples', 'skills');

// Runs `script` from a file (`node -e` itself loads node:crypto, which would hide what start-up loads).
function node(script: string, args: string[] = [], cwd = REPO): { status: number; out: string } {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'skilldex-bundle-script-')), 's.cjs');
  writeFileSync(file, script);
  const r = spawnSync(process.execPath, [file, ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', HOME: cwd },
  });
  if (r.status !== 0) throw new Error(`node ${file} exited ${r.status}: ${r.stderr}`);
  return { status: r.status, out: r.stdout };
}

function bin(args: string[], cwd: string): { status: number | null; stdout: string } {
  const r = spawnSync(process.execPath, [path.join(REPO, 'bin', 'skilldex.js'), ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', HOME: cwd },
  });
  return { status: r.status, stdout: r.stdout };
}

describe('the bundled CLI', () => {
  let dir: string;
  let catalog: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'skilldex-bundle-'));
    catalog = path.join(dir, 'catalog.sqlite');
    expect(bin(['index', '--catalog', catalog, '--scope', EXAMPLES, '--quiet'], dir).status).toBe(
      0,
    );
  });

  it('loads with its code cache accepted by this Node', () => {
    const r = node(`console.log(require(${JSON.stringify(ENTRY)}).loadCli().cache)`);
    expect(r.out.trim()).toBe('accepted');
  });

  it('runs, more slowly, with a cache another Node made (rejected) or with none', () => {
    // A copy with the package.json its version is read from, two folders up as in the package.
    const other = mkdtempSync(path.join(os.tmpdir(), 'skilldex-bundle-copy-'));
    mkdirSync(path.join(other, 'dist', 'cli'), { recursive: true });
    copyFileSync(path.join(REPO, 'package.json'), path.join(other, 'package.json'));
    const copy = path.join(other, 'dist', 'cli', 'skilldex.cjs');
    copyFileSync(BUNDLE, copy);
    const load = (b: string): string =>
      `const l = require(${JSON.stringify(ENTRY)}).loadCli(${JSON.stringify(b)});` +
      `l.cli.run(['--version'], { stdout: (s) => process.stdout.write(s), stderr: () => {}, env: {}, cwd: '.', stderrIsTTY: false })` +
      `.then((c) => console.log(l.cache, c));`;
    expect(node(load(copy)).out.trim().split('\n').pop()).toBe('none 0');
    writeFileSync(copy + '.v8cache', Buffer.alloc(4096, 7));
    expect(node(load(copy)).out.trim().split('\n').pop()).toBe('rejected 0');
  });

  it('reports a broken install (a bundle cut short) as INTERNAL with a stack, not the minified source', () => {
    const broken = mkdtempSync(path.join(os.tmpdir(), 'skilldex-broken-'));
    for (const f of ['bin/skilldex.js', 'bin/package.json']) {
      mkdirSync(path.dirname(path.join(broken, f)), { recursive: true });
      copyFileSync(path.join(REPO, f), path.join(broken, f));
    }
    // Half the bundle, as an interrupted copy leaves it: a SyntaxError whose V8 report quotes the
    // (minified, one very long) source line it stopped in.
    mkdirSync(path.join(broken, 'dist', 'cli'), { recursive: true });
    const bundle = readFileSync(path.join(REPO, 'dist/cli/skilldex.cjs'));
    // The `(` after the cut keeps it a SyntaxError wherever the half ends (a cut right after an
    // identifier would otherwise parse, and fail later as a ReferenceError).
    writeFileSync(
      path.join(broken, 'dist/cli/skilldex.cjs'),
      Buffer.concat([bundle.subarray(0, bundle.length >> 1), Buffer.from('(')]),
    );
    const r = spawnSync(process.execPath, [path.join(broken, 'bin', 'skilldex.js'), '--version'], {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '' },
    });
    expect(r.status).toBe(70);
    expect(r.stderr).toMatch(/^error INTERNAL: /);
    expect(r.stderr).toMatch(/SyntaxError/);
    expect(r.stderr.length).toBeLessThan(5_000);
    rmSync(broken, { recursive: true, force: true });
  });

  it('prints what the source prints: search --json, the text rendering, --help', async () => {
    for (const args of [
      ['search', 'extract tables from a pdf', '--catalog', catalog, '--json', '--no-telemetry'],
      ['search', 'deploy an app to kubernetes', '--catalog', catalog, '--no-telemetry'],
      ['search', '--help'],
      ['--help'],
    ]) {
      const built = bin(args, dir);
      const source = await runCli(args, { cwd: dir, env: { HOME: dir } });
      expect(built.status).toBe(source.code);
      expect(built.stdout).toBe(source.stdout);
    }
  });

  it('starts a search without loading node:crypto or node:child_process', () => {
    const script =
      `const l = require(${JSON.stringify(ENTRY)}).loadCli();` +
      `l.cli.run(process.argv.slice(2), { stdout: () => {}, stderr: () => {}, env: {}, cwd: process.cwd(), stderrIsTTY: false })` +
      `.then((c) => console.log(c, process.moduleLoadList.filter((m) => /crypto|child_process/.test(m)).join(',') || 'none'));`;
    for (const args of [
      ['--version'],
      ['search', 'extract tables', '--catalog', catalog, '--no-telemetry'],
    ]) {
      expect(node(script, args, dir).out.trim()).toBe('0 none');
    }
  });

  it('answers a prompt hook without loading the yaml package, node:crypto or node:perf_hooks', () => {
    // yaml cost every prompt ~25 ms, crypto ~2.8 ms, perf_hooks ~1.2 ms (bench:hook). A preload
    // reports, at exit, the packages under node_modules the process required and those built-ins.
    const pre = path.join(mkdtempSync(path.join(os.tmpdir(), 'skilldex-bundle-pre-')), 'pre.cjs');
    writeFileSync(
      pre,
      `process.on('exit', () => process.stderr.write('LOADED ' + Object.keys(require.cache)` +
        `.map((f) => (/node_modules[\\/\\\\]((?:@[^\\/\\\\]+[\\/\\\\])?[^\\/\\\\]+)/.exec(f) || [])[1]).filter(Boolean)` +
        `.filter((v, i, a) => a.indexOf(v) === i).sort().join(',') + '\\n' + 'BUILTINS ' +` +
        `process.moduleLoadList.filter((m) => /crypto|perf_hooks/.test(m)).join(',') + '\\n'));`,
    );
    const event = JSON.stringify({
      hook_event_name: 'UserPromptSubmit',
      session_id: 'bundle-yaml',
      cwd: dir,
      prompt: 'extract tables from a pdf and convert them to csv',
    });
    const r = spawnSync(
      process.execPath,
      ['-r', pre, ENTRY, 'hook', 'claude-code', '--catalog', catalog, '--no-telemetry'],
      {
        cwd: dir,
        encoding: 'utf8',
        input: event,
        env: { PATH: process.env['PATH'] ?? '', HOME: dir },
      },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('pdf');
    const loaded = /LOADED (.*)/.exec(r.stderr)?.[1]?.split(',') ?? [];
    expect(loaded).toContain('better-sqlite3');
    expect(loaded).not.toContain('yaml');
    expect(/BUILTINS (.*)/.exec(r.stderr)?.[1]).toBe('');
  });
});
