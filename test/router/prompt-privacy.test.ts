/**
 * What skilldex keeps about a person's prompts, and how it goes (issue 36 P1, docs/integration.md
 * §7): `forget --all --purge` removes every usage example, every telemetry event (query hashes,
 * fetch contexts) and the prompt hook's session files and log, and leaves no deleted prompt text
 * in the telemetry file; examples older than the retention (`usage_retention_days` of the user's
 * config, default DEFAULT_USAGE_RETENTION_DAYS) are not stored and are dropped at every write; a
 * project config cannot set the retention.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_USAGE_RETENTION_DAYS,
  addUsageExamples,
  openUsageForWrite,
  readUsage,
  telemetryPathFor,
} from '../../src/catalog/index.js';
import { Router, forgetExamples, indexCatalog, learnExamples } from '../../src/internal.js';
import { REPO, runCli, tmpDir, tmpTree } from '../support/cli.js';
import { NOW, codeOf } from '../catalog/support.js';

const SECRET = 'quarterly merger with zanzibar holdings';

function catalogOf(): { root: string; catalog: string } {
  const root = tmpDir('skilldex-p1-');
  const catalog = path.join(root, 'catalog.sqlite');
  indexCatalog({
    catalog,
    scopes: [path.join(REPO, 'examples', 'skills')],
    home: root,
    project: root,
    now: NOW,
  });
  return { root, catalog };
}

// A search, a fetch with a context and an imported example: prompts in every table that holds them.
// The learned examples (not the author examples index reads from examples/skills, issue 34).
const learned = (catalog: string) =>
  readUsage(telemetryPathFor(catalog)).examples.filter((e) => e.source !== 'author');

function remember(catalog: string): void {
  const router = new Router({ catalog, now: NOW, origin: { client: 'mcp:x', session: 's1' } });
  try {
    const c = router.search({ query: 'merge pdf files', limit: 3 }).candidates[0]!;
    router.fetch({
      skill_id: c.skill_id,
      expected_revision: c.revision_id,
      catalog_generation: c.catalog_generation,
      context: SECRET,
    });
  } finally {
    router.close();
  }
  learnExamples({
    catalog,
    text: JSON.stringify({ query: `${SECRET} import`, skill_id: 'pdf-toolkit' }),
    file: 'x.jsonl',
    now: NOW,
  });
}

// The author examples index read from examples/skills' evals files (issue 34).
function authorRows(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (
      db.prepare(`SELECT count(*) AS n FROM usage_examples WHERE source = 'author'`).get() as {
        n: number;
      }
    ).n;
  } finally {
    db.close();
  }
}

function rows(file: string, table: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('forget --all --purge (issue 36 P1)', () => {
  it('removes every example and event, and no prompt text stays in the telemetry file', () => {
    const { catalog } = catalogOf();
    remember(catalog);
    const file = telemetryPathFor(catalog);
    // Besides the 2 learned, the author examples index read from examples/skills (issue 34).
    const all = rows(file, 'usage_examples');
    expect(all - authorRows(file)).toBe(2);
    expect(rows(file, 'events')).toBeGreaterThan(0);
    const r = forgetExamples({ catalog, all: true, purge: true });
    expect(r.removed).toBe(all);
    expect(r.purged!.events).toBeGreaterThan(0);
    expect(rows(file, 'usage_examples')).toBe(0);
    expect(rows(file, 'events')).toBe(0);
    // Rebuilt: the bytes of the deleted prompts are gone from the file and its log.
    for (const f of [file, `${file}-wal`])
      if (existsSync(f)) expect(readFileSync(f).includes(Buffer.from('zanzibar'))).toBe(false);
  });

  it('a reader holding the file open makes the purge WRITE_FAILED, never a silent half-purge', () => {
    const { catalog } = catalogOf();
    remember(catalog);
    const reader = new Database(telemetryPathFor(catalog), { readonly: true });
    try {
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM usage_examples').get();
      expect(codeOf(() => forgetExamples({ catalog, all: true, purge: true }))).toBe(
        'WRITE_FAILED',
      );
    } finally {
      reader.exec('COMMIT');
      reader.close();
    }
    // Once the reader is gone, running it again completes.
    expect(forgetExamples({ catalog, all: true, purge: true }).purged).toBeDefined();
  });

  it('--purge without --all is INVALID_ARGUMENT, and a plain --all keeps the events', () => {
    const { catalog } = catalogOf();
    remember(catalog);
    expect(codeOf(() => forgetExamples({ catalog, skill_id: 'pdf-toolkit', purge: true }))).toBe(
      'INVALID_ARGUMENT',
    );
    const r = forgetExamples({ catalog, all: true });
    expect(r.purged).toBeUndefined();
    expect(rows(telemetryPathFor(catalog), 'events')).toBeGreaterThan(0);
  });

  it('the CLI removes the prompt hook files too, only the ones the hook writes', async () => {
    const { root, catalog } = catalogOf();
    remember(catalog);
    const authorCount = authorRows(telemetryPathFor(catalog));
    const home = path.join(root, 'home');
    const hook = path.join(home, '.local', 'state', 'skilldex', 'hook');
    mkdirSync(path.join(hook, 'sessions'), { recursive: true });
    writeFileSync(path.join(hook, 'sessions', `${'a'.repeat(32)}.json`), '{"topic":["x"]}\n');
    writeFileSync(path.join(hook, 'sessions', 'keep-me.txt'), 'not the hook’s');
    writeFileSync(path.join(hook, 'hook.log'), 'a line\n');
    const r = await runCli(['forget', '--all', '--purge', '--catalog', catalog, '--json'], {
      env: { HOME: home },
      cwd: root,
    });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      removed: number;
      purged: { events: number; hook_files: number; hook_state: string };
    };
    expect(out.removed).toBe(2 + authorCount); // and the author examples of examples/skills (issue 34)
    expect(out.purged).toMatchObject({ hook_files: 2, hook_state: hook });
    expect(readdirSync(path.join(hook, 'sessions'))).toEqual(['keep-me.txt']);
    expect(existsSync(path.join(hook, 'hook.log'))).toBe(false);
    const human = await runCli(['forget', '--all', '--purge', '--catalog', catalog], {
      env: { HOME: home },
      cwd: root,
    });
    expect(human.stdout).toContain('forgot 0 example row(s) and 0 telemetry event(s)');
    const bad = await runCli(['forget', '--skill', 'pdf-toolkit', '--purge', '--catalog', catalog]);
    expect(bad.code).toBe(2);
  });
});

describe('retention of usage examples (issue 36 P1)', () => {
  const day = 86_400_000;
  const iso = (ms: number): string => new Date(ms).toISOString();

  it('does not store an example older than the retention, and drops older ones at every write', () => {
    const { catalog } = catalogOf();
    const now = NOW().getTime();
    const db = openUsageForWrite(telemetryPathFor(catalog));
    try {
      // Written long ago (its own write time), then a write today with the default retention.
      addUsageExamples(
        db,
        [{ skill_id: 'pdf-toolkit', query: 'old one' }],
        'import',
        iso(now - 400 * day),
      );
      addUsageExamples(
        db,
        [
          { skill_id: 'pdf-toolkit', query: 'recent host', at: iso(now - 10 * day), key: 'k1' },
          { skill_id: 'pdf-toolkit', query: 'stale host', at: iso(now - 200 * day), key: 'k2' },
          // A time in the future is the write's (it would otherwise never expire).
          { skill_id: 'pdf-toolkit', query: 'future host', at: iso(now + 900 * day), key: 'k3' },
        ],
        'host',
        iso(now),
      );
    } finally {
      db.close();
    }
    const kept = new Database(telemetryPathFor(catalog), { readonly: true });
    try {
      expect(
        kept
          .prepare(`SELECT query, at FROM usage_examples WHERE source != 'author' ORDER BY query`)
          .all(),
      ).toEqual([
        { query: 'future host', at: iso(now) },
        { query: 'recent host', at: iso(now - 10 * day) },
      ]);
    } finally {
      kept.close();
    }
    expect(DEFAULT_USAGE_RETENTION_DAYS).toBe(180);
  });

  it('a shorter retention drops more; a bad one is INVALID_ARGUMENT', () => {
    const { catalog } = catalogOf();
    const now = NOW().getTime();
    const db = openUsageForWrite(telemetryPathFor(catalog));
    try {
      addUsageExamples(
        db,
        [{ skill_id: 'pdf-toolkit', query: 'a' }],
        'import',
        iso(now - 10 * day),
      );
      addUsageExamples(db, [{ skill_id: 'pdf-toolkit', query: 'b' }], 'import', iso(now), {}, 5);
      for (const bad of [0, -1, 1.5, 40_000])
        expect(codeOf(() => addUsageExamples(db, [], 'import', iso(now), {}, bad))).toBe(
          'INVALID_ARGUMENT',
        );
    } finally {
      db.close();
    }
    expect(learned(catalog).map((e) => e.query)).toEqual(['b']);
    expect(codeOf(() => new Router({ catalog, usageRetentionDays: 0 }))).toBe('INVALID_ARGUMENT');
  });

  it('a fetch through the Router applies its retention', () => {
    const { catalog } = catalogOf();
    const now = NOW().getTime();
    learnExamples({
      catalog,
      text: JSON.stringify({ query: 'month old prompt', skill_id: 'pdf-toolkit' }),
      file: 'x.jsonl',
      now: () => new Date(now - 30 * day),
    });
    const router = new Router({ catalog, now: NOW, usageRetentionDays: 7 });
    try {
      const c = router.search({ query: 'merge pdf files', limit: 1 }).candidates[0]!;
      router.fetch({
        skill_id: c.skill_id,
        expected_revision: c.revision_id,
        catalog_generation: c.catalog_generation,
        context: 'merge these two pdfs',
      });
    } finally {
      router.close();
    }
    expect(learned(catalog).map((e) => e.query)).toEqual(['merge these two pdfs']);
  });

  it('usage_retention_days comes from the user config only; a project config cannot set it', async () => {
    const home = tmpTree({
      'user.toml': 'usage_retention_days = 30\n',
      'proj/.git/HEAD': 'ref: refs/heads/main\n',
      'proj/.skilldex/config.toml': 'usage_retention_days = 36500\n',
      'bad.toml': 'usage_retention_days = 0\n',
    });
    const show = async (cwd: string, env: Record<string, string>) => {
      const r = await runCli(['config', '--json'], { cwd, env });
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as {
        ignored: { key: string }[];
        settings: Record<string, { value: unknown; source: string }>;
      };
    };
    const def = await show(home, { HOME: home });
    expect(def.settings['usage_retention_days']).toEqual({ value: 180, source: 'default' });
    const user = path.join(home, 'user.toml');
    const proj = await show(path.join(home, 'proj'), { HOME: home, SKILLDEX_CONFIG: user });
    expect(proj.ignored.map((i) => i.key)).toContain('usage_retention_days');
    expect(proj.settings['usage_retention_days']?.value).toBe(30);
    const bad = await runCli(['config', '--json'], {
      cwd: home,
      env: { HOME: home, SKILLDEX_CONFIG: path.join(home, 'bad.toml') },
    });
    expect(bad.code).not.toBe(0);
    expect(bad.stdout + bad.stderr).toContain('usage_retention_days');
  });
});
