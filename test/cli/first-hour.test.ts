/**
 * The first hour of a new user (issue 27, CLI): an index that finds no skill publishes nothing and
 * says which scopes it read; a search of an empty catalog is CATALOG_EMPTY; the hints of a query of
 * stop-words only, a fetch without pins or with `--generation latest`, an MCP fetch without
 * context and a crawl of a folder without an index each say what to do next; enrich reads the
 * library index reads (--scope, library.scopes, the catalog's remembered scopes).
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, isSkilldexError } from '../../src/errors.js';
import { checkFetchRequest } from '../../src/router/index.js';
import { runCli, skillMd, tmpTree, writeTree } from '../support/cli.js';

interface ErrorBody {
  error: { code: string; message: string; hint: string; details: Record<string, unknown> };
}

const errorOf = (stdout: string): ErrorBody['error'] => (JSON.parse(stdout) as ErrorBody).error;

describe('an index that finds no skill', () => {
  it('refuses to publish an empty first generation, names the scopes read and leaves no catalog', async () => {
    const home = tmpTree({ 'empty/.keep': '' });
    const catalog = path.join(home, 'catalog.sqlite');
    for (const scopes of [[], ['--scope', path.join(home, 'empty')]]) {
      const r = await runCli(['index', '--catalog', catalog, ...scopes, '--json'], {
        cwd: home,
        env: { HOME: home },
      });
      expect(r.code).toBe(2);
      const e = errorOf(r.stdout);
      expect(e.code).toBe('NO_SKILLS_FOUND');
      const read = (e.details['scopes'] as { path: string }[]).map((s) => s.path);
      if (scopes.length > 0) expect(read).toEqual([path.join(home, 'empty')]);
      else expect(read).toContain(path.join(home, '.claude', 'skills'));
      expect(e.message).toMatch(/^found no SKILL\.md in /);
      expect(readdirSync(home).filter((n) => n.startsWith('catalog'))).toEqual([]);
    }
  });

  it('says how many SKILL.md files it found and skipped, and why (issue 36 R4)', async () => {
    const home = tmpTree({
      'lib/a/SKILL.md': '---\nname: a\ndescription: [unclosed\n---\n\nBody.\n',
      'lib/b/SKILL.md': '---\nname: b\n---\n\nBody without a description.\n',
      'lib/c/SKILL.md': 'no frontmatter at all\n',
    });
    const catalog = path.join(home, 'catalog.sqlite');
    const r = await runCli(['index', '--catalog', catalog, '--scope', 'lib', '--json'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(r.code).toBe(2);
    const e = errorOf(r.stdout);
    expect(e.code).toBe('NO_SKILLS_FOUND');
    expect(e.message).toContain(
      `found 3 SKILL.md file(s) in ${path.join(home, 'lib')} and skipped every one`,
    );
    const byCode = e.details['skipped_by_code'] as Record<string, number>;
    expect(Object.values(byCode).reduce((a, b) => a + b, 0)).toBe(3);
    for (const [code, n] of Object.entries(byCode)) expect(e.message).toContain(`${n} ${code}`);
    expect(e.message).toContain(path.join(home, 'lib', 'a', 'SKILL.md'));
    expect(e.message).not.toContain('no readable SKILL.md');
    const text = await runCli(['index', '--catalog', catalog, '--scope', 'lib'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(text.stderr).toContain('skipped every one');
  });

  it('still publishes an empty generation over a published one when --allow-shrink says so, and search then says CATALOG_EMPTY', async () => {
    const home = tmpTree({ 'lib/alpha/SKILL.md': skillMd('alpha', 'alpha tool for pdf tables') });
    const catalog = path.join(home, 'catalog.sqlite');
    const index = (extra: string[] = []) =>
      runCli(['index', '--catalog', catalog, '--scope', 'lib', ...extra, '--json'], {
        cwd: home,
        env: { HOME: home },
      });
    expect((await index()).code).toBe(0);
    rmSync(path.join(home, 'lib', 'alpha'), { recursive: true });
    expect((await index(['--allow-shrink'])).code).toBe(0);
    const search = await runCli(['search', 'pdf tables', '--catalog', catalog, '--json'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(search.code).toBe(2);
    expect(errorOf(search.stdout).code).toBe('CATALOG_EMPTY');
  });

  it('a catalog indexed without publishing is CATALOG_EMPTY for search, with a hint that says how to add skills', async () => {
    const home = tmpTree({ 'lib/alpha/SKILL.md': skillMd('alpha', 'alpha tool for pdf tables') });
    const catalog = path.join(home, 'catalog.sqlite');
    await runCli(['index', '--catalog', catalog, '--scope', 'lib', '--no-publish'], {
      cwd: home,
      env: { HOME: home },
    });
    const search = await runCli(['search', 'pdf', '--catalog', catalog, '--json'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(errorOf(search.stdout).code).toBe('CATALOG_EMPTY');
    expect(errorOf(search.stdout).hint).toContain('--scope');
  });
});

describe('hints that say what to do next', () => {
  const withCatalog = async (): Promise<{ home: string; catalog: string }> => {
    const home = tmpTree({ 'lib/alpha/SKILL.md': skillMd('alpha', 'alpha tool for pdf tables') });
    const catalog = path.join(home, 'catalog.sqlite');
    await runCli(['index', '--catalog', catalog, '--scope', 'lib'], {
      cwd: home,
      env: { HOME: home },
    });
    return { home, catalog };
  };

  it('a query of stop-words only says so (details.reason), with its own hint', async () => {
    const { home, catalog } = await withCatalog();
    const r = await runCli(['search', 'the a of', '--catalog', catalog, '--json'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(r.code).toBe(2);
    const e = errorOf(r.stdout);
    expect(e.code).toBe('INVALID_QUERY');
    expect(e.details['reason']).toBe('stop-words');
    expect(e.hint).not.toBe(ERROR_CODES.INVALID_QUERY.hint);
    const punct = await runCli(['search', '?!', '--catalog', catalog, '--json'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(errorOf(punct.stdout).details['reason']).toBe('no-words');
  });

  it('fetch without pins, or with --generation latest, is INVALID_ARGUMENT pointing to search and show', async () => {
    const { home, catalog } = await withCatalog();
    const cases: [string[], string][] = [
      [[], '--revision'],
      [['--revision', 'sha256:' + 'a'.repeat(64)], '--generation'],
      [['--revision', 'sha256:' + 'a'.repeat(64), '--generation', 'latest'], '--generation'],
      [['--revision', 'HEAD', '--generation', 'sha256:' + 'b'.repeat(64)], '--revision'],
    ];
    for (const [pins, option] of cases) {
      const r = await runCli(['fetch', 'alpha', ...pins, '--catalog', catalog, '--json'], {
        cwd: home,
        env: { HOME: home },
      });
      expect(r.code, pins.join(' ')).toBe(2);
      const e = errorOf(r.stdout);
      expect(e.code).toBe('INVALID_ARGUMENT');
      expect(e.details['option']).toBe(option);
      expect(e.hint).toContain('skilldex search');
      expect(e.hint).toContain('skilldex show alpha');
    }
  });

  it('a fetch request without context (as over MCP) gets a hint about the fetch fields, not the command line', () => {
    let caught: unknown;
    try {
      checkFetchRequest({ skill_id: 'a', expected_revision: 'r', catalog_generation: 'g' });
    } catch (err) {
      caught = err;
    }
    expect(isSkilldexError(caught)).toBe(true);
    const e = caught as { code: string; hint: string; details: Record<string, unknown> };
    expect(e.code).toBe('INVALID_ARGUMENT');
    expect(e.details['field']).toBe('context');
    expect(e.hint).not.toBe(ERROR_CODES.INVALID_ARGUMENT.hint);
    expect(e.hint).toContain('context');
  });

  it('a crawl of a folder without skill.index points to cascade build', async () => {
    const dir = tmpTree({ 'pdf/SKILL.md': skillMd('pdf', 'pdf tools') });
    const r = await runCli(['cascade', 'crawl', dir, 'pdf'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`skilldex cascade build ${dir}`);
  });
});

describe('enrich reads the library', () => {
  const BRIEF = 'extract tables from pdf invoices and export csv';
  const library = (): string =>
    tmpTree({
      'project/.keep': '',
      ...Object.fromEntries(
        ['pdf-tables', 'csv-export', 'invoice-reader', 'table-extract', 'pdf-invoices'].map(
          (id) => [
            `lib/${id}/SKILL.md`,
            skillMd(id, `Extract tables from PDF invoices and export CSV (${id}).`),
          ],
        ),
      ),
    });
  const enrich = (home: string, extra: string[], env: Record<string, string> = {}) =>
    runCli(
      ['enrich', '--brief', BRIEF, '--out', 'evidence/skill-enrichment/x', '--json', ...extra],
      { cwd: path.join(home, 'project'), env: { HOME: home, ...env } },
    );
  const scopesOf = (stdout: string): { scope: string; path: string }[] =>
    (JSON.parse(stdout) as { scopes: { scope: string; path: string }[] }).scopes;

  it('takes --scope, and without it the config library.scopes, then the catalog remembered scopes', async () => {
    const home = library();
    const lib = path.join(home, 'lib');
    const flag = await enrich(home, ['--scope', lib]);
    expect(flag.code).toBe(0);
    // Reports show paths below the home folder as ~/….
    expect(scopesOf(flag.stdout)).toEqual([{ scope: 'library', path: '~/lib', exists: true }]);

    writeTree(home, { '.config/skilldex/config.toml': `[library]\nscopes = ["${lib}"]\n` });
    const config = await enrich(home, []);
    expect(config.code).toBe(0);
    expect(scopesOf(config.stdout).map((s) => s.path)).toEqual(['~/lib']);
    rmSync(path.join(home, '.config'), { recursive: true });

    const catalog = path.join(home, 'c.sqlite');
    await runCli(['index', '--catalog', catalog, '--scope', lib], {
      cwd: home,
      env: { HOME: home },
    });
    const remembered = await enrich(home, ['--catalog', catalog]);
    expect(remembered.code).toBe(0);
    expect(scopesOf(remembered.stdout).map((s) => s.path)).toEqual(['~/lib']);

    // Without any of them: the four default scopes.
    const plain = await enrich(home, []);
    expect(scopesOf(plain.stdout).map((s) => s.scope)).toContain('personal');
    expect(existsSync(path.join(home, 'project', 'evidence'))).toBe(true);
  });
});
