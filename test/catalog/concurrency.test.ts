/**
 * Concurrency and crash safety with real child processes running the built dist/ (docs/integration.md §5,
 * issue #3): a reader answering searches in a loop while the parent re-indexes never gives an
 * answer that mixes generations and sees the new one after the publish; an index killed with
 * SIGKILL mid-ingest leaves the last published generation serving and the next index recovers; a
 * long-lived Router refuses a catalog whose published sequence went backwards (CATALOG_ROLLBACK).
 * `npm test` builds dist/ first; run `npm run build` before running this file alone.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeGeneration } from '../../src/catalog/write/generation.js';
import {
  POLICY_ID,
  Router,
  getGenerations,
  type Candidate,
  type FetchResult,
  type SearchResult,
} from '../../src/internal.js';
import { REPO, tmpDir, writeTree } from '../support/cli.js';
import { NOW, codeOf, indexTree, newCatalogPath, skillText } from './support.js';

const DIST = pathToFileURL(path.join(REPO, 'dist', 'index.js')).href;
let scripts: string;

beforeAll(() => {
  if (!existsSync(path.join(REPO, 'dist', 'index.js')))
    throw new Error('dist/ is missing: run npm run build (npm test does)');
  scripts = tmpDir('skilldex-child-');
  writeFileSync(
    path.join(scripts, 'reader.mjs'),
    `import { Router } from ${JSON.stringify(DIST)};
const [catalog, queriesJson, target, maxMs] = process.argv.slice(2);
const queries = JSON.parse(queriesJson);
const router = new Router({ catalog, telemetry: false });
const start = Date.now();
let seenTarget = 0;
for (let round = 0; Date.now() - start < Number(maxMs); round++) {
  for (const query of queries) {
    const out = { query };
    try {
      out.result = router.search({ query, limit: 10 });
      const c = out.result.candidates[0];
      if (c) {
        try {
          const f = router.fetch({ skill_id: c.skill_id, expected_revision: c.revision_id, catalog_generation: c.catalog_generation, context: '' });
          out.fetch = { ok: true, skill_id: f.skill_id, revision_id: f.revision_id, body: f.body };
        } catch (e) {
          out.fetch = { ok: false, code: e.code ?? String(e) };
        }
      }
      if (out.result.catalog_generation === target) seenTarget++;
    } catch (e) {
      out.error = e.code ?? String(e);
    }
    process.stdout.write(JSON.stringify(out) + '\\n');
  }
  if (round === 0) process.stdout.write('READY\\n');
  if (seenTarget >= 3 * queries.length) break;
}
router.close();
process.stdout.write('END\\n');
`,
  );
  writeFileSync(
    path.join(scripts, 'indexer.mjs'),
    `import { indexCatalog } from ${JSON.stringify(DIST)};
const [catalog, root] = process.argv.slice(2);
indexCatalog({ catalog, scopes: [root], home: root, project: root, onProgress: (done, total) => process.stdout.write('PROGRESS ' + done + ' ' + total + '\\n') });
process.stdout.write('DONE\\n');
`,
  );
});
afterAll(() => rmSync(scripts, { recursive: true, force: true }));

interface Child {
  readonly lines: string[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill: () => void;
}

// Runs a child script; `onLine` sees each stdout line as it arrives.
function runChild(
  script: string,
  args: string[],
  onLine: (line: string, child: Child) => void = () => undefined,
): Child {
  const proc = spawn(process.execPath, [path.join(scripts, script), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let buf = '';
  let stderr = '';
  const child: Child = {
    lines,
    exited: new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal }))),
    kill: () => proc.kill('SIGKILL'),
  };
  proc.stdout.setEncoding('utf8');
  proc.stdout.on('data', (d: string) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      lines.push(line);
      onLine(line, child);
    }
  });
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  void child.exited.then(({ code }) => {
    if (code !== 0 && code !== null && stderr) lines.push(`STDERR ${stderr}`);
  });
  return child;
}

function waitFor(child: Child, pred: (line: string) => boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setInterval(() => {
      if (child.lines.some(pred)) {
        clearInterval(t);
        resolve();
      }
    }, 5);
    void child.exited.then(() => {
      clearInterval(t);
      if (child.lines.some(pred)) resolve();
      else
        reject(
          new Error(
            `child exited before the expected line; output:\n${child.lines.slice(-5).join('\n')}`,
          ),
        );
    });
  });
}

const sha = (text: string): string => 'sha256:' + createHash('sha256').update(text).digest('hex');

// A tree of `n` skills; `variant` changes descriptions and versions of every third skill.
function treeFiles(ids: readonly number[], variant: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (const i of ids) {
    const changed = variant > 0 && i % 3 === 0;
    const words = [
      'alpha',
      'bravo',
      'charlie',
      'delta',
      'echo',
      'foxtrot',
      'report',
      'table',
      'chart',
    ];
    const description = `${changed ? `omega${variant}` : 'alpha'} ${words[i % words.length]} ${words[(i * 7) % words.length]} item w${i % 37} handles data`;
    files[`s${i}/SKILL.md`] = skillText(`s${i}`, {
      description,
      keywords: [words[(i * 5) % words.length]!],
      version: changed ? `${variant + 1}.0.0` : '1.0.0',
      body: `# s${i}\n\nBody of s${i}${changed ? `, variant ${variant}` : ''}.\n`,
    });
  }
  return files;
}

function generationOf(files: Record<string, string>): string {
  return computeGeneration(
    Object.entries(files).map(([p, text]) => ({
      skill_id: p.split('/')[0]!,
      revision_id: sha(text),
      state: 'active' as const,
    })),
    POLICY_ID,
  );
}

const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from }, (_, i) => from + i);

describe('a reader during a re-index', () => {
  it('answers from the old or the new generation, never a mix, and sees the new one after the publish', async () => {
    const v1 = treeFiles(range(0, 400), 0);
    const v2 = treeFiles(range(50, 500), 1);
    const g1 = generationOf(v1);
    const g2 = generationOf(v2);
    expect(g2).not.toBe(g1);
    const queries = ['alpha report', 'omega1 chart', 'bravo w3 data', 'echo table', 'charlie'];

    // Expected answers of each generation, from catalogs built from scratch.
    const expected = new Map<string, Map<string, string>>();
    const bodies = new Map<string, string>();
    for (const [files, gen] of [
      [v1, g1],
      [v2, g2],
    ] as const) {
      const root = tmpDir();
      writeTree(root, files);
      const cat = newCatalogPath();
      expect(indexTree(cat, root).publish?.catalog_generation).toBe(gen);
      const r = new Router({ catalog: cat, telemetry: false });
      expected.set(
        gen,
        new Map(queries.map((q) => [q, JSON.stringify(r.search({ query: q, limit: 10 }))])),
      );
      r.close();
      for (const text of Object.values(files))
        bodies.set(sha(text), text.slice(text.indexOf('\n---\n') + 5));
    }

    const root = tmpDir();
    writeTree(root, v1);
    const catalog = newCatalogPath();
    indexTree(catalog, root);
    const reader = runChild('reader.mjs', [catalog, JSON.stringify(queries), g2, '60000']);
    await waitFor(reader, (l) => l === 'READY');
    // Rewrite the tree to v2 (changes, removals, additions), then re-index while the reader reads.
    for (const i of range(0, 50)) rmSync(path.join(root, `s${i}`), { recursive: true });
    writeTree(root, v2);
    const report = indexTree(catalog, root);
    expect(report.publish).toMatchObject({ changed: true, catalog_generation: g2 });
    const { code } = await reader.exited;
    expect(code).toBe(0);

    const answers = reader.lines
      .filter((l) => l.startsWith('{'))
      .map(
        (l) =>
          JSON.parse(l) as {
            query: string;
            result?: SearchResult;
            error?: string;
            fetch?: { ok: boolean; code?: string; revision_id?: string; body?: string };
          },
      );
    expect(reader.lines.at(-1)).toBe('END');
    const seen = new Set<string>();
    for (const a of answers) {
      expect(a.error).toBeUndefined();
      const gen = a.result!.catalog_generation;
      expect([g1, g2]).toContain(gen);
      seen.add(gen);
      for (const c of a.result!.candidates) expect(c.catalog_generation).toBe(gen);
      expect(JSON.stringify(a.result)).toBe(expected.get(gen)!.get(a.query));
      if (a.fetch?.ok) expect(a.fetch.body).toBe(bodies.get(a.fetch.revision_id!));
      else if (a.fetch)
        expect(['INDEX_DRIFT', 'CATALOG_GENERATION_MISMATCH']).toContain(a.fetch.code);
    }
    expect([...seen].sort()).toEqual([g1, g2].sort());
    expect(answers.at(-1)!.result!.catalog_generation).toBe(g2);
    // Once the reader saw g2, it never went back to g1.
    const firstNew = answers.findIndex((a) => a.result!.catalog_generation === g2);
    expect(answers.slice(firstNew).every((a) => a.result!.catalog_generation === g2)).toBe(true);
  });
});

describe('an index killed with SIGKILL mid-ingest', () => {
  it(
    'leaves the last published generation serving, and the next index recovers',
    { timeout: 240_000 },
    async () => {
      const N = 3_000;
      const root = tmpDir();
      const v1 = treeFiles(range(0, N), 0);
      writeTree(root, v1);
      const catalog = newCatalogPath();
      const g1 = indexTree(catalog, root).publish!.catalog_generation;
      expect(g1).toBe(generationOf(v1));
      const router = new Router({ catalog, telemetry: false });
      try {
        const before = JSON.stringify(router.search({ query: 'alpha report', limit: 10 }));
        // s4 keeps its bytes in every variant; s3 (every third skill) changes.
        const stablePin = router.search({ query: 's4', limit: 1 }).candidates[0]!;
        const changedPin = router.search({ query: 's3', limit: 1 }).candidates[0]!;
        expect([stablePin.skill_id, changedPin.skill_id]).toEqual(['s4', 's3']);

        // Round 1: killed while reading files (no write transaction has begun).
        const v2 = { ...treeFiles(range(0, N), 1), ...treeFiles(range(N, N + 300), 0) };
        writeTree(root, v2);
        const killed = runChild('indexer.mjs', [catalog, root], (line, c) => {
          if (/^PROGRESS (\d+) /.exec(line) && Number(line.split(' ')[1]) >= 256) c.kill();
        });
        const exit1 = await killed.exited;
        const reachedWrite = killed.lines.includes(`PROGRESS ${N + 300} ${N + 300}`);
        expect(killed.lines).not.toContain('DONE');
        expect(exit1.signal).toBe('SIGKILL');
        if (!reachedWrite) {
          expect(router.currentGeneration()).toBe(g1);
          expect(JSON.stringify(router.search({ query: 'alpha report', limit: 10 }))).toBe(before);
          expect(getGenerations({ catalog })).toHaveLength(1);
        }
        // A skill whose file did not change still fetches; one whose file changed has drifted.
        if (!reachedWrite) {
          const fetchPin = (c: Candidate): FetchResult =>
            router.fetch({
              skill_id: c.skill_id,
              expected_revision: c.revision_id,
              catalog_generation: g1,
              context: '',
            });
          expect(fetchPin(stablePin).body).toContain(`Body of ${stablePin.skill_id}.`);
          expect(codeOf(() => fetchPin(changedPin))).toBe('INDEX_DRIFT');
        }
        const recovered = indexTree(catalog, root);
        const g2 = generationOf(v2);
        expect(recovered.publish?.catalog_generation).toBe(g2);
        expect(router.currentGeneration()).toBe(g2);
        expect(router.search({ query: 'omega1', limit: 3 }).candidates).toHaveLength(3);

        // Round 2: killed as soon as every file is read (the write transaction is about to begin or running).
        const v3 = { ...treeFiles(range(0, N + 300), 2) };
        writeTree(root, v3);
        const killed2 = runChild('indexer.mjs', [catalog, root], (line, c) => {
          if (line === `PROGRESS ${N + 300} ${N + 300}`) c.kill();
        });
        await killed2.exited;
        const g3 = generationOf(v3);
        const serving = router.currentGeneration();
        expect([g2, g3]).toContain(serving);
        const gens = getGenerations({ catalog });
        expect(gens.find((g) => g.published)?.catalog_generation).toBe(serving);
        const r = router.search({ query: 'alpha report', limit: 10 });
        expect(r.catalog_generation).toBe(serving);
        const again = indexTree(catalog, root);
        expect(again.publish?.catalog_generation).toBe(g3);
        expect(router.currentGeneration()).toBe(g3);
        const top = router.search({ query: 'omega2 alpha', limit: 1 }).candidates[0]!;
        expect(
          router.fetch({
            skill_id: top.skill_id,
            expected_revision: top.revision_id,
            catalog_generation: top.catalog_generation,
            context: '',
          }).body,
        ).toContain(`Body of ${top.skill_id}`);
      } finally {
        router.close();
      }
    },
  );
});

describe('a catalog restored over a newer one', () => {
  it('makes a long-lived Router answer CATALOG_ROLLBACK for search and fetch', () => {
    const root = tmpDir();
    writeTree(root, treeFiles(range(0, 30), 0));
    const catalog = newCatalogPath();
    indexTree(catalog, root);
    const backup = catalog + '.backup';
    copyFileSync(catalog, backup);

    const router = new Router({ catalog, telemetry: false, now: NOW });
    try {
      const g1 = router.search({ query: 'alpha' }).catalog_generation;
      writeTree(root, treeFiles(range(0, 30), 1));
      const g2 = indexTree(catalog, root).publish!.catalog_generation;
      const pin = router.search({ query: 'omega1' }).candidates[0]!;
      expect(pin.catalog_generation).toBe(g2);
      expect(g2).not.toBe(g1);
      // Restore the older file the way an operator would: copy beside, rename over.
      const tmp = catalog + '.restore';
      copyFileSync(backup, tmp);
      renameSync(tmp, catalog);
      expect(codeOf(() => router.search({ query: 'alpha' }))).toBe('CATALOG_ROLLBACK');
      expect(
        codeOf(() =>
          router.fetch({
            skill_id: pin.skill_id,
            expected_revision: pin.revision_id,
            catalog_generation: g2,
            context: '',
          }),
        ),
      ).toBe('CATALOG_ROLLBACK');
    } finally {
      router.close();
    }
    // A new reader has no history: it serves the restored file.
    const fresh = new Router({ catalog, telemetry: false });
    try {
      expect(fresh.search({ query: 'alpha' }).candidates.length).toBeGreaterThan(0);
    } finally {
      fresh.close();
    }
  });

  it('a copy of the catalog file alone, taken while a reader is open, holds the published generation', () => {
    const root = tmpDir();
    writeTree(root, treeFiles(range(0, 20), 0));
    const catalog = newCatalogPath();
    indexTree(catalog, root);
    const router = new Router({ catalog, telemetry: false });
    try {
      router.search({ query: 'alpha' });
      writeTree(root, treeFiles(range(0, 20), 1));
      const g2 = indexTree(catalog, root).publish!.catalog_generation;
      // Replicating the published catalog means copying its file (closeWriter folds the WAL into it).
      const replica = path.join(tmpDir(), 'replica.sqlite');
      cpSync(catalog, replica);
      const r = new Router({ catalog: replica, telemetry: false });
      try {
        expect(r.currentGeneration()).toBe(g2);
      } finally {
        r.close();
      }
    } finally {
      router.close();
    }
  });
});
