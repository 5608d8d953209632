/**
 * The package as a user installs it (issue #12): `npm pack` the checkout, `npm install -g` the
 * tarball into a temporary prefix, and drive the installed `skilldex` binary — `--version`,
 * `index`, `search` and one MCP stdio session (initialize, tools/call skill_search). Proves the
 * tarball's `files`, `bin`, shebang and runtime dependencies are complete: nothing here runs from
 * the checkout.
 *
 * Network: the install runs with `--prefer-offline`, so it is served from npm's cache (filled by
 * `npm ci`) and fetches only registry metadata the cache lacks. Install scripts are skipped
 * (`--ignore-scripts`) so better-sqlite3 is not compiled again for minutes; its addon is copied
 * from the checkout's node_modules instead (same package version, same Node ABI — both checked).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO, tmpDir } from '../support/cli.js';

const INSTALL_TIMEOUT_MS = 600_000;

interface Installed {
  /** The temporary prefix `npm install -g --prefix` wrote to. */
  readonly prefix: string;
  /** The installed `skilldex` executable (the shim npm links into `<prefix>/bin`). */
  readonly bin: string;
  /** The installed package folder. */
  readonly pkg: string;
}

function npm(args: string[], cwd: string): string {
  const r = spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    timeout: INSTALL_TIMEOUT_MS,
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  if (r.status !== 0)
    throw new Error(`npm ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

function install(): Installed {
  const work = tmpDir('skilldex-install-');
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', work], REPO)) as {
    filename: string;
  }[];
  const tarball = path.join(work, packed[0]!.filename);
  const prefix = path.join(work, 'prefix');
  npm(
    [
      'install',
      '-g',
      '--prefix',
      prefix,
      '--prefer-offline',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      tarball,
    ],
    work,
  );
  const pkg = path.join(prefix, 'lib', 'node_modules', 'skilldex');
  const addonRel = path.join('build', 'Release', 'better_sqlite3.node');
  const ours = path.join(REPO, 'node_modules', 'better-sqlite3');
  const theirs = path.join(pkg, 'node_modules', 'better-sqlite3');
  const version = (dir: string): string =>
    (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string })
      .version;
  expect(version(theirs)).toBe(version(ours));
  mkdirSync(path.dirname(path.join(theirs, addonRel)), { recursive: true });
  copyFileSync(path.join(ours, addonRel), path.join(theirs, addonRel));
  return { prefix, bin: path.join(prefix, 'bin', 'skilldex'), pkg };
}

function runInstalled(
  inst: Installed,
  args: string[],
  cwd: string,
): { code: number; stdout: string; stderr: string } {
  // Only the prefix's bin folder and the folder of this node on PATH: nothing from the checkout.
  const env = {
    PATH: [path.join(inst.prefix, 'bin'), path.dirname(process.execPath)].join(path.delimiter),
    HOME: cwd,
  };
  const r = spawnSync(inst.bin, args, { cwd, env, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe('npm pack + npm install -g', () => {
  let inst: Installed;
  let home: string;
  let catalog: string;

  beforeAll(() => {
    inst = install();
    home = tmpDir('skilldex-install-home-');
    cpSync(path.join(REPO, 'examples', 'skills'), path.join(home, 'library'), { recursive: true });
    catalog = path.join(home, 'catalog.sqlite');
  }, INSTALL_TIMEOUT_MS);

  it('ships the built code, the bin shim with its shebang, the skills and the plugin, and no tests or sources', () => {
    expect(
      readFileSync(path.join(inst.pkg, 'bin', 'skilldex.js'), 'utf8').startsWith(
        '#!/usr/bin/env node\n',
      ),
    ).toBe(true);
    expect(existsSync(path.join(inst.pkg, 'dist', 'cli', 'main.js'))).toBe(true);
    // The bundled CLI the shim starts, its code cache, and the shim's CommonJS marker.
    for (const f of ['dist/cli/skilldex.cjs', 'dist/cli/skilldex.cjs.v8cache'])
      expect(existsSync(path.join(inst.pkg, f)), f).toBe(true);
    expect(JSON.parse(readFileSync(path.join(inst.pkg, 'bin', 'package.json'), 'utf8'))).toEqual({
      type: 'commonjs',
    });
    expect(existsSync(path.join(inst.pkg, 'skills', 'skill-router', 'SKILL.md'))).toBe(true);
    expect(existsSync(path.join(inst.pkg, 'plugin', '.claude-plugin', 'plugin.json'))).toBe(true);
    const top = readdirSync(inst.pkg).sort();
    expect(top).not.toContain('test');
    expect(top).not.toContain('src');
    // Only runtime dependencies were installed: no dev tool came along.
    const deps = readdirSync(path.join(inst.pkg, 'node_modules'));
    for (const dev of ['vitest', 'typescript', 'eslint', 'fast-check', 'prettier'])
      expect(deps).not.toContain(dev);
  });

  it('runs --version, index and search through the installed binary', () => {
    const version = runInstalled(inst, ['--version'], home);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(
      (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string })
        .version,
    );

    const index = runInstalled(
      inst,
      ['index', '--catalog', catalog, '--scope', path.join(home, 'library'), '--json'],
      home,
    );
    expect(index.code, index.stderr).toBe(0);
    expect((JSON.parse(index.stdout) as { added: unknown[] }).added.length).toBeGreaterThan(30);

    const search = runInstalled(
      inst,
      ['search', 'extract tables from a pdf', '--catalog', catalog, '--limit', '3', '--json'],
      home,
    );
    expect(search.code, search.stderr).toBe(0);
    const result = JSON.parse(search.stdout) as { candidates: { skill_id: string }[] };
    expect(result.candidates.map((c) => c.skill_id)).toContain('pdf-toolkit');
  });

  it('serves one MCP stdio session (initialize, tools/call skill_search) through the installed binary', async () => {
    const transport = new StdioClientTransport({
      command: inst.bin,
      args: ['mcp', '--catalog', catalog, '--no-telemetry'],
      cwd: home,
      env: {
        PATH: [path.join(inst.prefix, 'bin'), path.dirname(process.execPath)].join(path.delimiter),
        HOME: home,
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'install-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBe('skilldex');
      const r = await client.callTool({
        name: 'skill_search',
        arguments: { query: 'extract tables from a pdf', limit: 3 },
      });
      expect(r.isError).not.toBe(true);
      const sc = r.structuredContent as { candidates: { skill_id: string }[] };
      expect(sc.candidates.map((c) => c.skill_id)).toContain('pdf-toolkit');
    } finally {
      await client.close();
    }
  });
});
