/**
 * The hook offers a Claude Code plugin's skill the way Claude Code loads it (issue 35): indexed in
 * place from an enabled plugin (init does that), its id is `<plugin>:<name>` and the suggestion says
 * `/<plugin>:<name>` (the Skill tool), not skilldex's skill_fetch, which needs an MCP server
 * Claude Code may not have. A skill of the same name in a plain library folder still gets its pins.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_POLICY_ID, Router, indexCatalog } from '../../src/internal.js';
import { suggest } from '../../src/hook/index.js';
import { skillMd, tmpDir, writeTree } from '../support/cli.js';

describe("the hook loads a Claude Code plugin's skill natively", () => {
  let home: string;
  let router: Router;
  beforeAll(() => {
    home = tmpDir('skilldex-hook-plugin-');
    const install = path.join(home, '.claude', 'plugins', 'cache', 'market', 'docs-kit', '1.0.0');
    writeTree(install, {
      'skills/pdf-merge/SKILL.md': skillMd(
        'pdf-merge',
        'Merge several PDF files into one PDF document, keeping page order and bookmarks.',
      ),
    });
    writeTree(home, {
      'lib/k8s-deploy/SKILL.md': skillMd(
        'k8s-deploy',
        'Deploy an application to a Kubernetes cluster with manifests, rollouts and health checks.',
      ),
    });
    writeFileSync(
      path.join(home, '.claude', 'plugins', 'installed_plugins.json'),
      JSON.stringify({ version: 2, plugins: { 'docs-kit@market': [{ installPath: install }] } }),
    );
    const catalog = path.join(home, 'catalog.sqlite');
    indexCatalog({
      catalog,
      scopes: [path.join(install, 'skills'), path.join(home, 'lib')],
      home,
      now: () => new Date(0),
      policy: DEFAULT_POLICY_ID,
    });
    router = new Router({ catalog, telemetry: false });
  });
  afterAll(() => router.close());

  it('suggests /docs-kit:pdf-merge for Claude Code, and pins for a library skill and other hosts', () => {
    const pdf = suggest(router, 'merge two pdf files into one', {
      host: 'claude-code',
      home,
      env: {},
    });
    expect(pdf.suggestions[0]!.skill_id).toBe('docs-kit:pdf-merge');
    expect(pdf.suggestions[0]!.load).toEqual({ kind: 'native', invoke: '/docs-kit:pdf-merge' });
    const k8s = suggest(router, 'deploy my app to a kubernetes cluster', {
      host: 'claude-code',
      home,
      env: {},
    });
    expect(k8s.suggestions[0]!.skill_id).toBe('k8s-deploy');
    expect(k8s.suggestions[0]!.load.kind).toBe('skill_fetch');
    const generic = suggest(router, 'merge two pdf files into one', {
      host: 'generic',
      home,
      env: {},
    });
    expect(generic.suggestions[0]!.load.kind).toBe('skill_fetch');
  });
});
