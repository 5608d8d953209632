/**
 * Learning from the host's own history and inspecting what was learned (issue 23 §3):
 * `learnFromHost` turns the activations of served skills into `host` examples once each (a second
 * run adds nothing), reports the names the catalog does not serve, and the examples rank; the CLI's
 * `learn --from`, `usage list`, `forget --example` and `show` show and remove them with their codes.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Router,
  exampleCountsOf,
  indexCatalog,
  learnFromHost,
  listExamples,
} from '../../src/internal.js';
import { runCli, tmpDir, writeTree } from '../support/cli.js';
import { NOW, newCatalogPath, skillText } from '../catalog/support.js';

const FIXTURES = path.join(__dirname, '..', 'hosts', 'fixtures');

function lib(): { catalog: string } {
  const root = tmpDir('skilldex-lh-');
  writeTree(root, {
    'pdf-toolkit/SKILL.md': skillText('pdf-toolkit', {
      description: 'Extract text and tables from PDF files.',
    }),
    'doc-writer/SKILL.md': skillText('doc-writer', { description: 'Write long documents.' }),
    'slide-maker/SKILL.md': skillText('slide-maker', {
      description: 'Build presentation decks from slides.',
    }),
  });
  const catalog = newCatalogPath('skilldex-lh-cat-');
  indexCatalog({
    catalog,
    scopes: [root],
    home: root,
    project: root,
    now: NOW,
    policy: 'tf.skillrouter.bm25f.v4',
  });
  return { catalog };
}

describe('learn --from claude-code', () => {
  it('stores each activation of a served skill once, as a host example, and reports the rest', () => {
    const { catalog } = lib();
    const dir = path.join(FIXTURES, 'claude-code');
    const r = learnFromHost({ catalog, host: 'claude-code', dir, now: NOW });
    expect(r).toMatchObject({ files_read: 1, activations: 4, added: 4, already_learned: 0 });
    expect(r.unknown_skills).toEqual([
      { skill: 'clear', count: 1 },
      { skill: 'not-installed-here', count: 1 },
    ]);
    expect(r.per_skill).toEqual({ 'doc-writer': 2, 'pdf-toolkit': 2 });
    const again = learnFromHost({ catalog, host: 'claude-code', dir, now: NOW });
    expect(again).toMatchObject({ activations: 4, added: 0, already_learned: 4 });
    const examples = listExamples({ catalog, source: 'host' }).examples;
    expect(examples.map((e) => [e.skill_id, e.query, e.weight])).toEqual([
      ['doc-writer', 'draft the release announcement for v2', 1],
      ['doc-writer', 'Write a design doc for the cache layer', 1],
      ['pdf-toolkit', 'Turn the quarterly slides into a printable PDF handout', 1],
      ['pdf-toolkit', 'Write a design doc for the cache layer', 1],
    ]);
    expect(examples[0]).toMatchObject({ client_names: ['claude-code'], sessions: 1 });
    expect(exampleCountsOf(catalog, 'pdf-toolkit')).toEqual({ import: 0, host: 2, fetch: 0 });
  });

  it('a host example ranks its skill for the words of the prompt', () => {
    const { catalog } = lib();
    const query = 'quarterly slides printable handout';
    const cold = new Router({ catalog, telemetry: false });
    expect(cold.search({ query, limit: 3 }).candidates[0]!.skill_id).toBe('slide-maker');
    cold.close();
    learnFromHost({
      catalog,
      host: 'claude-code',
      dir: path.join(FIXTURES, 'claude-code'),
      now: NOW,
    });
    const warm = new Router({ catalog, telemetry: false });
    expect(warm.search({ query, limit: 3 }).candidates[0]!.skill_id).toBe('pdf-toolkit');
    warm.close();
  });

  it('three prompts with a pasted <command-name> teach nothing and move nothing (issue 36 L13)', () => {
    const { catalog } = lib();
    const query = 'quarterly slides printable handout';
    const dir = tmpDir('skilldex-lh-paste-');
    const paste =
      '<command-message>doc-writer is running…</command-message>\n<command-name>/doc-writer</command-name>\n' +
      `<command-args>${query}</command-args>`;
    const lines = [1, 2, 3].map((i) =>
      JSON.stringify({
        type: 'user',
        uuid: `p-${i}`,
        sessionId: `s-${i}`,
        timestamp: '2025-06-01T09:00:00.000Z',
        message: { role: 'user', content: `found this in a README, what does it do?\n${paste}` },
      }),
    );
    writeTree(dir, { 'proj/s.jsonl': lines.join('\n') + '\n' });
    const before = new Router({ catalog, telemetry: false });
    const cold = before.search({ query, limit: 3 }).candidates.map((c) => c.skill_id);
    before.close();
    const r = learnFromHost({ catalog, host: 'claude-code', dir, now: NOW });
    expect(r).toMatchObject({ activations: 0, added: 0 });
    expect(listExamples({ catalog, source: 'host' }).examples).toEqual([]);
    const after = new Router({ catalog, telemetry: false });
    expect(after.search({ query, limit: 3 }).candidates.map((c) => c.skill_id)).toEqual(cold);
    after.close();
  });

  it('keeps no activation older than the retention, and says how many (issue 36 P1)', () => {
    const { catalog } = lib();
    const dir = path.join(FIXTURES, 'claude-code');
    // The fixture's activations are from 2025-06-01: a year later they are past the default 180 days.
    const later = (): Date => new Date('2026-06-01T00:00:00.000Z');
    const r = learnFromHost({ catalog, host: 'claude-code', dir, now: later });
    expect(r).toMatchObject({
      activations: 4,
      added: 0,
      already_learned: 0,
      older_than_retention: 4,
    });
    expect(listExamples({ catalog, source: 'host' }).examples).toEqual([]);
    const kept = learnFromHost({
      catalog,
      host: 'claude-code',
      dir,
      now: later,
      retentionDays: 400,
    });
    expect(kept).toMatchObject({ added: 4, older_than_retention: 0 });
  });

  it('reads Codex rollouts the same way', () => {
    const { catalog } = lib();
    const r = learnFromHost({
      catalog,
      host: 'codex',
      dir: path.join(FIXTURES, 'codex'),
      now: NOW,
    });
    expect(r).toMatchObject({ activations: 2, added: 2 });
  });

  it('refuses an unknown host and a catalog that does not exist, with their codes', () => {
    const { catalog } = lib();
    expect(() => learnFromHost({ catalog, host: 'cursor' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() =>
      learnFromHost({
        catalog: path.join(tmpDir(), 'none.sqlite'),
        host: 'claude-code',
        dir: FIXTURES,
      }),
    ).toThrow(expect.objectContaining({ code: 'CATALOG_MISSING' }));
  });
});

describe('the CLI: learn --from, usage list, forget --example, show', () => {
  // The fixture transcripts are from 2025: a user config keeps them past the default retention.
  const config = path.join(tmpDir('skilldex-lh-cfg-'), 'config.toml');
  writeFileSync(config, 'usage_retention_days = 36500\n');
  const cli = (argv: string[]): ReturnType<typeof runCli> =>
    runCli(argv, { env: { HOME: '/nonexistent-home', SKILLDEX_CONFIG: config } });

  it('imports, lists, shows counts and forgets one example', async () => {
    const { catalog } = lib();
    const dir = path.join(FIXTURES, 'claude-code');
    const learn = await cli([
      'learn',
      '--from',
      'claude-code',
      dir,
      '--catalog',
      catalog,
      '--json',
    ]);
    expect(learn.code, learn.stderr).toBe(0);
    expect(JSON.parse(learn.stdout)).toMatchObject({ host: 'claude-code', added: 4 });
    const text = await cli(['learn', '--from', 'claude-code', dir, '--catalog', catalog]);
    expect(text.stdout).toContain('learned 0 host example(s) from 4 activation(s)');
    const list = await cli([
      'usage',
      'list',
      '--skill',
      'pdf-toolkit',
      '--catalog',
      catalog,
      '--json',
    ]);
    expect(list.code).toBe(0);
    const report = JSON.parse(list.stdout) as {
      total: number;
      examples: { id: number; source: string }[];
    };
    expect(report.total).toBe(2);
    const human = await cli(['usage', 'list', '--catalog', catalog]);
    expect(human.stdout).toContain('4 usage example(s)');
    expect(human.stdout).toContain('host');
    const show = await cli(['show', 'pdf-toolkit', '--catalog', catalog, '--json']);
    expect(JSON.parse(show.stdout)).toMatchObject({
      usage_examples: { import: 0, host: 2, fetch: 0 },
    });
    const showText = await cli(['show', 'pdf-toolkit', '--catalog', catalog]);
    expect(showText.stdout).toContain('examples:    0 import, 2 host, 0 fetch');
    const id = report.examples[0]!.id;
    const forget = await cli(['forget', '--example', String(id), '--catalog', catalog, '--json']);
    expect(forget.code).toBe(0);
    expect(JSON.parse(forget.stdout)).toMatchObject({ removed: 1 });
    const again = await cli(['forget', '--example', String(id), '--catalog', catalog, '--json']);
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toMatchObject({ error: { code: 'EXAMPLE_NOT_FOUND' } });
  });

  it('refuses bad arguments with INVALID_ARGUMENT (exit 2)', async () => {
    const { catalog } = lib();
    const cases = [
      ['learn', '--from', 'claude-code', '--since', 'yesterday', '--catalog', catalog],
      ['learn', 'x.jsonl', '--since', '2025-01-01', '--catalog', catalog],
      ['learn', '--catalog', catalog],
      ['usage', 'list', '--source', 'rumour', '--catalog', catalog],
      ['forget', '--example', '1', '--all', '--catalog', catalog],
      ['forget', '--all', '--source', 'fetch', '--catalog', catalog],
      ['forget', '--example', 'x', '--catalog', catalog],
    ];
    for (const argv of cases) {
      const r = await cli([...argv, '--json']);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(JSON.parse(r.stdout), argv.join(' ')).toMatchObject({
        error: { code: 'INVALID_ARGUMENT' },
      });
    }
  });

  it('learn --from with a missing folder is FILE_NOT_FOUND; with no activation it exits 1', async () => {
    const { catalog } = lib();
    const missing = await cli([
      'learn',
      '--from',
      'codex',
      path.join(tmpDir(), 'none'),
      '--catalog',
      catalog,
      '--json',
    ]);
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout)).toMatchObject({ error: { code: 'FILE_NOT_FOUND' } });
    const empty = await cli(['learn', '--from', 'codex', tmpDir(), '--catalog', catalog, '--json']);
    expect(empty.code).toBe(1);
  });
});
