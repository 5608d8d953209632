/**
 * The skills skilldex ships (issue #12): `skills/` is the one source; `plugin/skills/` is a copy for
 * the Claude Code plugin and must be byte-identical (`npm run sync:plugin` refreshes it). Every
 * shipped SKILL.md passes our own discovery and validation with no skip and no warning, and the
 * plugin manifest, its MCP configuration and the marketplace file have the shapes Claude Code reads.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { discoverSkills } from '../../src/skills/index.js';
import { REPO } from '../support/cli.js';

const SKILLS = path.join(REPO, 'skills');
const PLUGIN = path.join(REPO, 'plugin');
const SHIPPED = ['skill-enrichment', 'skill-index-crawling', 'skill-router', 'substrate-read'];

function filesBelow(root: string, rel = ''): string[] {
  return readdirSync(path.join(root, rel))
    .sort()
    .flatMap((name) => {
      const r = path.join(rel, name);
      return statSync(path.join(root, r)).isDirectory() ? filesBelow(root, r) : [r];
    });
}

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, 'utf8')) as unknown;
}

const packageVersion = (readJson(path.join(REPO, 'package.json')) as { version: string }).version;
const kebab = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/);

describe('shipped skills', () => {
  it('are exactly the four procedures, each valid with no warning', () => {
    const report = discoverSkills({ scopes: [SKILLS] });
    expect(report.skipped).toEqual([]);
    expect(report.skills.map((s) => s.skill_id).sort()).toEqual(SHIPPED);
    for (const s of report.skills) expect(s.warnings, s.skill_id).toEqual([]);
  });

  it('the router skill tells the agent to search, inspect, fetch with all four pins, and handle every consumer error', () => {
    const text = readFileSync(path.join(SKILLS, 'skill-router', 'SKILL.md'), 'utf8');
    for (const word of [
      'skill_search',
      'skill_fetch',
      'expected_revision',
      'catalog_generation',
      'context',
      'explanation',
    ]) {
      expect(text).toContain(word);
    }
    for (const code of [
      'CATALOG_GENERATION_MISMATCH',
      'REVISION_MISMATCH',
      'SKILL_NOT_FOUND',
      'SKILL_ARCHIVED',
      'INDEX_DRIFT',
      'INVALID_QUERY',
      'INVALID_ARGUMENT',
      'CATALOG_MISSING',
      'CATALOG_EMPTY',
    ]) {
      expect(text).toContain(code);
    }
  });

  it('each procedure skill names the tool or command that does the work', () => {
    const names: Record<string, string[]> = {
      'skill-index-crawling': ['skill_index_crawl', 'skilldex cascade crawl'],
      'substrate-read': ['substrate_read', 'skilldex substrate read'],
      'skill-enrichment': ['skilldex enrich'],
    };
    for (const [skill, words] of Object.entries(names)) {
      const text = readFileSync(path.join(SKILLS, skill, 'SKILL.md'), 'utf8');
      for (const w of words) expect(text, skill).toContain(w);
    }
  });

  it('plugin/skills is a byte-identical copy of skills/ (run npm run sync:plugin after editing skills/)', () => {
    const source = filesBelow(SKILLS);
    expect(filesBelow(path.join(PLUGIN, 'skills'))).toEqual(source);
    for (const f of source) {
      expect(
        readFileSync(path.join(PLUGIN, 'skills', f)).equals(readFileSync(path.join(SKILLS, f))),
        f,
      ).toBe(true);
    }
  });
});

describe('Claude Code plugin and marketplace files', () => {
  it('plugin.json names the plugin, at the package version', () => {
    const manifest = z
      .object({
        name: kebab,
        version: z.string(),
        description: z.string().min(1),
        author: z.object({ name: z.string().min(1) }).strict(),
        license: z.string(),
        keywords: z.array(z.string()),
      })
      .strict()
      .parse(readJson(path.join(PLUGIN, '.claude-plugin', 'plugin.json')));
    expect(manifest.name).toBe('skilldex');
    expect(manifest.version).toBe(packageVersion);
  });

  it('plugin/.mcp.json starts `skilldex mcp` on stdio', () => {
    const mcp = z
      .object({
        mcpServers: z.record(
          z.string(),
          z.object({ command: z.string(), args: z.array(z.string()) }).strict(),
        ),
      })
      .strict()
      .parse(readJson(path.join(PLUGIN, '.mcp.json')));
    expect(mcp.mcpServers['skilldex']).toEqual({ command: 'skilldex', args: ['mcp'] });
  });

  it('.claude-plugin/marketplace.json lists the plugin folder as a relative source that exists', () => {
    const market = z
      .object({
        name: kebab,
        owner: z.object({ name: z.string().min(1) }).strict(),
        metadata: z.object({ description: z.string(), version: z.string() }).strict(),
        plugins: z
          .array(
            z
              .object({
                name: kebab,
                source: z.string().startsWith('./'),
                description: z.string(),
                version: z.string(),
                category: z.string(),
              })
              .strict(),
          )
          .min(1),
      })
      .strict()
      .parse(readJson(path.join(REPO, '.claude-plugin', 'marketplace.json')));
    const entry = market.plugins.find((p) => p.name === 'skilldex');
    expect(entry?.version).toBe(packageVersion);
    expect(statSync(path.join(REPO, entry!.source, '.claude-plugin', 'plugin.json')).isFile()).toBe(
      true,
    );
  });
});
