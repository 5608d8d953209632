/**
 * Plugin filtering in enrichment (issue #7, docs/cli.md `skilldex scan`): with a readable registry only
 * enabled plugins are enumerated; with an unreadable installed_plugins.json every plugin folder is
 * enumerated and INDEX.md says that no enabled-list filter was applied.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { planEnrichment, type EnrichReport } from '../../src/enrich/index.js';
import { runCli } from '../support/cli.js';
import { BRIEF, buildFixture } from './fixture.js';

// JSON.parse's message text comes from V8 and changes between Node versions: goldens hold a placeholder.
function stableJsonError(text: string): string {
  return text.replace(/not valid JSON \([^)]*\)/g, 'not valid JSON (…)');
}

describe('plugin registry', () => {
  it('enumerates every plugin folder when installed_plugins.json is unreadable, and says so in INDEX.md', async () => {
    const fx = buildFixture({ registry: 'broken' });
    const r = await runCli(['enrich', '--home', fx.home], {
      cwd: fx.project,
      env: { TASK_BRIEF: BRIEF, EVIDENCE_TARGET: 'evidence/skill-enrichment/unfiltered' },
    });
    expect(r.code).toBe(0);
    const dir = path.join(fx.evidence, 'unfiltered');
    const index = readFileSync(path.join(dir, 'INDEX.md'), 'utf8');
    expect(index).toContain('No enabled-list filter was applied');
    await expect(stableJsonError(index)).toMatchFileSnapshot(
      './golden/registry-unreadable/INDEX.md',
    );
    const inventory = readFileSync(path.join(dir, 'raw-inventory.txt'), 'utf8');
    await expect(inventory).toMatchFileSnapshot('./golden/registry-unreadable/raw-inventory.txt');
    expect(inventory).toContain('off-kit');
    expect(inventory).toContain('stray');
    await expect(
      stableJsonError(readFileSync(path.join(dir, 'SKIPPED.md'), 'utf8')),
    ).toMatchFileSnapshot('./golden/registry-unreadable/SKIPPED.md');
  });

  it('reports the filter in the JSON report too', () => {
    const fx = buildFixture({ registry: 'broken' });
    const report: EnrichReport = planEnrichment({
      brief: BRIEF,
      target: 'evidence/skill-enrichment/j',
      env: {},
      cwd: fx.project,
      home: fx.home,
    }).report;
    expect(report.plugin_filter).toBe('none (installed_plugins.json unreadable)');
    expect(report.notes.map((n) => n.code)).toContain('PLUGIN_REGISTRY_UNREADABLE');
    // The disabled plugin's skill is read now, and its id carries the plugin name.
    expect(report.candidates.map((c) => c.skill_id)).toContain('off-kit:pdf-invoices');
  });

  it('says no plugin skills were read when ~/.claude/plugins does not exist', () => {
    const fx = buildFixture();
    rmSync(path.join(fx.home, '.claude', 'plugins'), { recursive: true });
    const report = planEnrichment({
      brief: BRIEF,
      target: 'evidence/skill-enrichment/j',
      env: {},
      cwd: fx.project,
      home: fx.home,
    }).report;
    expect(report.plugin_note).toMatch(/does not exist/);
    expect(report.scopes.every((s) => s.scope !== 'plugin')).toBe(true);
  });
});
