/**
 * Catalog locations: a SQLite path or a postgres:// URL, and nothing that merely looks like a URL.
 * A URL with one slash lost (`postgres:/host/db`) once became a SQLite catalog in a new folder
 * named `postgres:` inside the working folder; every way of naming a catalog (flag, environment,
 * config file, `catalog copy`) now refuses it with a code and writes nothing.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveCatalogLocation } from '../../src/catalog/index.js';
import { maskUrlText } from '../../src/catalog/store/location.js';
import { REPO, runCli, tmpDir, tmpTree } from '../support/cli.js';

const EXAMPLES = path.join(REPO, 'examples', 'skills');

describe('resolveCatalogLocation', () => {
  it('makes paths absolute against the base and keeps postgres:// URLs, password masked', () => {
    expect(resolveCatalogLocation('cat.sqlite', '/srv/x')).toBe('/srv/x/cat.sqlite');
    expect(resolveCatalogLocation('/abs/c.db', '/srv/x')).toBe('/abs/c.db');
    // A one-letter "scheme" is a Windows drive, and a colon later in a name is an ordinary name.
    expect(resolveCatalogLocation('C:/cat.sqlite', '/srv')).toBe(
      path.resolve('/srv', 'C:/cat.sqlite'),
    );
    expect(resolveCatalogLocation('./postgres:/x', '/srv')).toBe('/srv/postgres:/x');
    expect(resolveCatalogLocation('postgres://u:secret@h/db', '/srv')).toBe(
      'postgres://u:***@h/db',
    );
    expect(resolveCatalogLocation('postgresql://h/db', '/srv')).toBe('postgresql://h/db');
  });

  it.each([
    'postgres:/skilldex@127.0.0.1:5432/smoke',
    'postgresql:skilldex@db/skills',
    'mysql://u@h/db',
    'file:catalog.sqlite',
    'sqlite:///tmp/c.sqlite',
  ])('refuses %s with INVALID_ARGUMENT', (raw) => {
    expect(() => resolveCatalogLocation(raw, '/srv')).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  it('masks a password in text that starts like any URL, a slash lost or not', () => {
    expect(maskUrlText('postgres:/u:pw@h/db')).toBe('postgres:/u:***@h/db');
    expect(maskUrlText('see mysql://u:pw@h/db')).toBe('see mysql://u:***@h/db');
  });
});

describe('a mistyped catalog URL through the CLI', () => {
  const typo = 'postgres:/skilldex@127.0.0.1:5432/smoke';

  it('is refused from --catalog and SKILLDEX_CATALOG (exit 2) and creates nothing', async () => {
    const dir = tmpTree({});
    for (const [argv, env] of [
      [['index', '--catalog', typo, '--scope', EXAMPLES, '--json'], {}],
      [['index', '--scope', EXAMPLES, '--json'], { SKILLDEX_CATALOG: typo }],
      [['search', 'pdf', '--catalog', typo, '--json'], {}],
      [['catalog', 'copy', typo, 'out.sqlite', '--json'], {}],
    ] as const) {
      const r = await runCli([...argv], { cwd: dir, env: { HOME: dir, ...env } });
      expect(r.code, r.stderr).toBe(2);
      expect(JSON.parse(r.stdout || r.stderr)).toMatchObject({
        error: { code: 'INVALID_ARGUMENT' },
      });
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('is CONFIG_INVALID in a config file', async () => {
    const dir = tmpTree({ '.skilldex/config.toml': `catalog = "${typo}"\n` });
    // (The home folder is never searched for a project config: the project is elsewhere.)
    const r = await runCli(['search', 'pdf', '--json'], { cwd: dir, env: { HOME: tmpDir() } });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout || r.stderr)).toMatchObject({ error: { code: 'CONFIG_INVALID' } });
    expect(existsSync(path.join(dir, 'postgres:'))).toBe(false);
  });
});
