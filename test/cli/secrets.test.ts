/**
 * No output ever carries a database password (issue 25, docs/deploy.md): one fixed scenario — a
 * PostgreSQL catalog URL with a password in its user info, in `password=` and in `sslpassword=`,
 * a `--password-file`, the same URL in a config file — runs every command that names a catalog,
 * against a server that cannot be reached and (when the run has PostgreSQL) one that answers, plus
 * the library API and the MCP server's start; every byte of stdout and stderr, and every error's
 * message, details and stack, is searched for each secret, plain and percent-encoded.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Router, indexCatalog } from '../../src/router/index.js';
import { REPO, runCli, tmpDir } from '../support/cli.js';
import { freshPgDatabase, hasPg } from '../support/pg.js';

const SECRETS = ['Us3rInfo-S3cret', 'Qu3ry-S3cret', 'Ss1-S3cret', 'F1le-S3cret'] as const;
const [IN_USERINFO, IN_QUERY, IN_SSL, IN_FILE] = SECRETS;

/** The URL of the scenario on `hostPort/db`: all three in-URL secrets, percent-encoded forms too. */
function secretUrl(hostPort: string, db: string, extra = ''): string {
  return `postgres://skilldex:${encodeURIComponent(IN_USERINFO)}@${hostPort}/${db}?password=${IN_QUERY}&sslpassword=${encodeURIComponent(IN_SSL)}&sslmode=disable${extra}`;
}

function expectNoSecret(where: string, text: string): void {
  for (const s of SECRETS) {
    expect(text.includes(s), `${where} shows ${s}:\n${text}`).toBe(false);
    expect(text.includes(encodeURIComponent(s)), `${where} shows ${s} encoded`).toBe(false);
  }
}

/** Every command that names a catalog, as the scenario runs it. */
function commands(catalog: string, examples: string, lintScope: string): string[][] {
  return [
    ['search', 'merge pdf files', '--catalog', catalog],
    ['search', 'merge pdf files', '--catalog', catalog, '--json'],
    ['status', '--catalog', catalog],
    ['status', '--catalog', catalog, '--json'],
    ['generations', '--catalog', catalog, '--json'],
    ['learn', examples, '--catalog', catalog, '--json'],
    ['config', '--json'],
    ['config'],
    ['catalog', 'copy', catalog, path.join(tmpDir(), 'copy.sqlite'), '--json'],
    ['catalog', 'copy', catalog, path.join(tmpDir(), 'copy.sqlite')],
    ['lint', '--scope', lintScope, '--catalog', catalog, '--json'],
    ['index', '--catalog', catalog, '--scope', lintScope, '--json'],
    ['mcp', '--catalog', catalog, '--http', '0', '--host', '0.0.0.0', '--json'],
    ['serve', '--catalog', catalog, '--port', '0', '--host', '0.0.0.0', '--json'],
  ];
}

async function runScenario(url: string): Promise<void> {
  const home = tmpDir();
  const pw = path.join(home, 'pw');
  writeFileSync(pw, `${IN_FILE}\n`, { mode: 0o600 });
  const examples = path.join(home, 'examples.jsonl');
  writeFileSync(examples, '{"query":"merge pdfs","skill_id":"pdf-toolkit"}\n');
  const scope = path.join(REPO, 'examples', 'skills');
  // The same URL from the command line, from the environment, from a config file, with a password file.
  writeFileSync(path.join(home, 'user.toml'), `catalog = "${url}"\n`);
  const variants: [string, string[], Record<string, string>][] = [
    ['flag', [], {}],
    ['password file', ['--password-file', pw], {}],
    ['environment', [], { SKILLDEX_CATALOG: url, SKILLDEX_PASSWORD_FILE: pw }],
    ['config file', ['--config', path.join(home, 'user.toml')], {}],
  ];
  for (const [how, global, env] of variants) {
    for (const argv of commands(url, examples, scope)) {
      const cleaned = how === 'flag' || how === 'password file' ? argv : dropCatalogFlag(argv, url);
      const r = await runCli([...global, ...cleaned], { cwd: home, env: { HOME: home, ...env } });
      expectNoSecret(`${how}: skilldex ${cleaned.join(' ')} (exit ${r.code})`, r.stdout + r.stderr);
      expect(r.code, `${how}: ${cleaned.join(' ')}: ${r.stderr}`).not.toBe(70);
    }
  }
}

// `--catalog URL` taken out, for the variants that name the catalog elsewhere.
function dropCatalogFlag(argv: readonly string[], url: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--catalog' && argv[i + 1] === url) {
      i++;
      continue;
    }
    out.push(argv[i]!);
  }
  // `catalog copy FROM TO` keeps its positional URL.
  return out;
}

describe('a database password never reaches an output', () => {
  it('against a server that cannot be reached: every command, every way of naming the catalog', async () => {
    await runScenario(secretUrl('127.0.0.1:1', 'skills'));
  });

  it('through the library API: the error of a Router carries no password', () => {
    let caught: unknown;
    try {
      const router = new Router({ catalog: secretUrl('127.0.0.1:1', 'skills') });
      try {
        router.search({ query: 'merge pdf files' });
      } finally {
        router.close();
      }
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({ code: 'CATALOG_UNAVAILABLE' });
    const e = caught as Error & { toJSON(): unknown };
    expectNoSecret('Router error', `${e.message}\n${e.stack ?? ''}\n${JSON.stringify(e.toJSON())}`);
    expect(() => indexCatalog({ catalog: secretUrl('127.0.0.1:1', 'x'), scopes: [] })).toThrow(
      expect.objectContaining({ code: 'CATALOG_UNAVAILABLE' }),
    );
  });

  it.skipIf(!hasPg())(
    'against a server that answers (trust authentication accepts any password)',
    async () => {
      const fresh = new URL(freshPgDatabase());
      const options = fresh.searchParams.get('options')!;
      const url = secretUrl(
        fresh.host,
        fresh.pathname.slice(1),
        `&options=${encodeURIComponent(options)}`,
      );
      await runScenario(url);
    },
  );
});
