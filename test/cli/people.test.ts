/**
 * The CLI for people (issue #12): a person's searches record no suggestions (only `--record`, and
 * the MCP path, do; fetches with a context still count); search output names each candidate's file,
 * scope and a ready-to-run fetch command; `show` describes a skill and suggests ids for an unknown
 * one; ids starting with `-` work; `eval --per-query` lists misses and unknown labels exit 1.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, skillMd, tmpTree } from '../support/cli.js';

let root: string;
let catalog: string;

function counts(): { suggestions: number; fetches: number } {
  // The telemetry file sits beside the catalog: catalog.sqlite → catalog.telemetry.sqlite.
  const file = path.join(root, 'catalog.telemetry.sqlite');
  if (!existsSync(file)) return { suggestions: 0, fetches: 0 };
  const db = new Database(file, { readonly: true });
  try {
    const row = db
      .prepare(
        `SELECT coalesce(sum(suggestions), 0) AS suggestions, coalesce(sum(fetches), 0) AS fetches FROM counts`,
      )
      .get() as {
      suggestions: number;
      fetches: number;
    };
    return row;
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  root = tmpTree({
    'lib/pdf-tables/SKILL.md': skillMd('pdf-tables', 'extract tables from pdf invoices'),
    'lib/chart-maker/SKILL.md': skillMd('chart-maker', 'draw bar charts and line charts'),
    'lib/-dash-skill/SKILL.md': skillMd(
      '-dash-skill',
      'a skill whose id starts with a dash for zebra work',
    ),
  });
  catalog = path.join(root, 'catalog.sqlite');
  const r = await runCli(
    ['index', '--catalog', catalog, '--scope', path.join(root, 'lib'), '--json'],
    { cwd: root, env: { HOME: root } },
  );
  expect(r.code, r.stderr).toBe(0);
});

const env = (): Record<string, string> => ({ HOME: root });

describe('telemetry from people', () => {
  it('a terminal search records no suggestion; --record does; a fetch with a context counts', async () => {
    for (let i = 0; i < 3; i++)
      expect(
        (await runCli(['search', 'pdf tables', '--catalog', catalog], { cwd: root, env: env() }))
          .code,
      ).toBe(0);
    expect(counts().suggestions).toBe(0);
    const json = await runCli(['search', 'pdf tables', '--catalog', catalog, '--json'], {
      cwd: root,
      env: env(),
    });
    expect(counts().suggestions).toBe(0);
    await runCli(['search', 'pdf tables', '--catalog', catalog, '--record'], {
      cwd: root,
      env: env(),
    });
    expect(counts().suggestions).toBeGreaterThan(0);
    const r = JSON.parse(json.stdout) as {
      catalog_generation: string;
      candidates: { skill_id: string; revision_id: string }[];
    };
    const top = r.candidates[0]!;
    const f = await runCli(
      [
        'fetch',
        top.skill_id,
        '--revision',
        top.revision_id,
        '--generation',
        r.catalog_generation,
        '--catalog',
        catalog,
        '--context',
        'invoices',
      ],
      {
        cwd: root,
        env: env(),
      },
    );
    expect(f.code, f.stderr).toBe(0);
    expect(counts().fetches).toBe(1);
  });
});

describe('search output and show', () => {
  it("prints each candidate's path, scope and a fetch command that runs as printed", async () => {
    const r = await runCli(['search', 'pdf tables', '--catalog', catalog, '--no-telemetry'], {
      cwd: root,
      env: env(),
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`path: ${path.join('lib', 'pdf-tables', 'SKILL.md')}  (custom)`);
    const line = r.stdout.split('\n').find((l) => l.includes('fetch: skilldex fetch pdf-tables'))!;
    const argv = line
      .trim()
      .replace(/^fetch: skilldex /, '')
      .split(' ');
    const f = await runCli([...argv, '--catalog', catalog, '--no-telemetry'], {
      cwd: root,
      env: env(),
    });
    expect(f.code, f.stderr).toBe(0);
    expect(f.stdout).toContain('Body of pdf-tables.');
  });

  it('show: identity, path, scope, state and revisions; --body prints the verified body', async () => {
    const r = await runCli(['show', 'pdf-tables', '--catalog', catalog, '--json', '--body'], {
      cwd: root,
      env: env(),
    });
    expect(r.code, r.stderr).toBe(0);
    const d = JSON.parse(r.stdout) as {
      state: string;
      location: { path: string; scope: string };
      revisions_total: number;
      published: { revision_id: string };
      body: string;
    };
    expect(d.state).toBe('active');
    expect(d.location.path).toBe(path.join(root, 'lib', 'pdf-tables', 'SKILL.md'));
    expect(d.location.scope).toBe('custom');
    expect(d.revisions_total).toBe(1);
    expect(d.published.revision_id).toMatch(/^sha256:/);
    expect(d.body).toContain('Body of pdf-tables.');
    const text = await runCli(['show', 'pdf-tables', '--catalog', catalog], {
      cwd: root,
      env: env(),
    });
    expect(text.stdout).toContain('scope:');
    expect(text.stdout).not.toContain('Body of pdf-tables.');
  });

  it('an unknown id is SKILL_NOT_FOUND with the closest ids', async () => {
    const r = await runCli(['show', 'pdf-tabels', '--catalog', catalog, '--json'], {
      cwd: root,
      env: env(),
    });
    expect(r.code).toBe(3);
    const e = (
      JSON.parse(r.stdout) as { error: { code: string; details: { did_you_mean: string[] } } }
    ).error;
    expect(e.code).toBe('SKILL_NOT_FOUND');
    expect(e.details.did_you_mean[0]).toBe('pdf-tables');
    const far = await runCli(['show', 'zzzzzzzzzzzz', '--catalog', catalog, '--json'], {
      cwd: root,
      env: env(),
    });
    expect(
      (JSON.parse(far.stdout) as { error: { details: { did_you_mean: string[] } } }).error.details
        .did_you_mean,
    ).toEqual([]);
  });

  it('ids that start with "-" work for show and fetch without --; an unknown --option is still refused', async () => {
    const s = await runCli(['show', '-dash-skill', '--catalog', catalog, '--json'], {
      cwd: root,
      env: env(),
    });
    expect(s.code, s.stderr).toBe(0);
    const d = JSON.parse(s.stdout) as {
      skill_id: string;
      catalog_generation: string;
      published: { revision_id: string };
    };
    expect(d.skill_id).toBe('-dash-skill');
    const f = await runCli(
      [
        'fetch',
        '-dash-skill',
        '--revision',
        d.published.revision_id,
        '--generation',
        d.catalog_generation,
        '--catalog',
        catalog,
        '--no-telemetry',
      ],
      {
        cwd: root,
        env: env(),
      },
    );
    expect(f.code, f.stderr).toBe(0);
    expect(f.stdout).toContain('Body of -dash-skill.');
    const bad = await runCli(['show', '--bdoy', 'pdf-tables', '--catalog', catalog], {
      cwd: root,
      env: env(),
    });
    expect(bad.code).toBe(2);
  });
});

describe('eval --per-query', () => {
  it('lists misses with expected and got, and exits 1 on labels naming no catalog skill', async () => {
    const file = path.join(root, 'q.jsonl');
    writeFileSync(
      file,
      [
        { id: 'q1', query: 'extract pdf tables', relevant: ['pdf-tables'] },
        { id: 'q2', query: 'bar charts', relevant: ['pdf-tables'] },
      ]
        .map((q) => JSON.stringify(q))
        .join('\n') + '\n',
    );
    const ok = await runCli(['eval', file, '--catalog', catalog, '--per-query', '--json'], {
      cwd: root,
      env: env(),
    });
    expect(ok.code, ok.stderr).toBe(0);
    const r = JSON.parse(ok.stdout) as {
      misses: { id: string; expected: string[]; got: string[] }[];
      unknown_labels: unknown[];
    };
    expect(r.misses.map((m) => m.id)).toEqual(['q2']);
    expect(r.misses[0]!.expected).toEqual(['pdf-tables']);
    expect(r.misses[0]!.got[0]).toBe('chart-maker');
    expect(r.unknown_labels).toEqual([]);
    const text = await runCli(['eval', file, '--catalog', catalog, '--per-query'], {
      cwd: root,
      env: env(),
    });
    expect(text.stdout).toContain('misses (top-1 not relevant): 1');

    writeFileSync(
      file,
      JSON.stringify({ id: 'q3', query: 'pdf tables', relevant: ['pdf-tabels'] }) + '\n',
    );
    const bad = await runCli(['eval', file, '--catalog', catalog, '--json'], {
      cwd: root,
      env: env(),
    });
    expect(bad.code).toBe(1);
    expect(
      (JSON.parse(bad.stdout) as { unknown_labels: { skill_id: string }[] }).unknown_labels.map(
        (u) => u.skill_id,
      ),
    ).toEqual(['pdf-tabels']);
    const badText = await runCli(['eval', file, '--catalog', catalog], { cwd: root, env: env() });
    expect(badText.code).toBe(1);
    expect(badText.stderr).toContain('unknown label pdf-tabels');
  });
});
