/**
 * One version: package.json's. The library's VERSION, the CLI's --version (in process and as the
 * built binary), the MCP server's serverInfo.version and package-lock.json all say the same, and
 * no source file spells a version of its own.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VERSION } from '../src/version.js';
import { REPO, runBin, runCli } from './support/cli.js';
import { closeAll, connectInProcess, makeCatalog } from './mcp/support.js';

const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
  version: string;
};
const lock = JSON.parse(readFileSync(path.join(REPO, 'package-lock.json'), 'utf8')) as {
  version: string;
  packages: Record<string, { version?: string }>;
};

afterAll(closeAll);

describe('the version', () => {
  it('is package.json version, in the library and in package-lock.json', () => {
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(VERSION).toBe(pkg.version);
    expect(lock.version).toBe(pkg.version);
    expect(lock.packages['']?.version).toBe(pkg.version);
  });

  it('is what skilldex --version prints, in process and from the build', async () => {
    const r = await runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
    const bin = runBin(['--version']);
    expect(bin.code).toBe(0);
    expect(bin.stdout.trim()).toBe(pkg.version);
  });

  it('is the MCP server version a client sees', async () => {
    const cat = await makeCatalog();
    const conn = await connectInProcess({ catalog: cat.catalog });
    expect(conn.client.getServerVersion()).toMatchObject({
      name: 'skilldex',
      version: pkg.version,
    });
  });

  it('is spelled in no source file', () => {
    const literal = new RegExp(`['"\`]${pkg.version.replace(/\./g, '\\.')}['"\`]`);
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => {
        const p = path.join(dir, n);
        return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
      });
    const spelled = walk(path.join(REPO, 'src')).filter((f) =>
      literal.test(readFileSync(f, 'utf8')),
    );
    expect(spelled.map((f) => path.relative(REPO, f))).toEqual([]);
  });
});
