/**
 * `catalog copy` is all or nothing (issue 25): a copy whose telemetry side fails leaves nothing at
 * the target — no half-copied catalog that a rerun would refuse — and the rerun, once the obstacle
 * is gone, copies everything. The temporary files of a failed copy are removed.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Router,
  copyCatalog,
  indexCatalog,
  learnExamples,
  telemetryPathFor,
} from '../../src/internal.js';
import { REPO, tmpDir } from '../support/cli.js';
import { freshPgDatabase, hasPg } from '../support/pg.js';

function sourceWithTelemetry(): string {
  const catalog = path.join(tmpDir(), 'source.sqlite');
  indexCatalog({ catalog, scopes: [path.join(REPO, 'examples', 'skills')] });
  learnExamples({
    catalog,
    text: '{"query":"merge two pdf files","skill_id":"pdf-toolkit"}\n',
    file: 'examples.jsonl',
  });
  return catalog;
}

describe('catalog copy into a SQLite file', () => {
  it('leaves no target when the telemetry side fails, and a rerun then copies everything', () => {
    const from = sourceWithTelemetry();
    const dir = tmpDir();
    const to = path.join(dir, 'copy.sqlite');
    // A folder where the target's telemetry file goes: the side of the copy cannot be written.
    mkdirSync(telemetryPathFor(to));
    expect(() => copyCatalog(from, to)).toThrow();
    expect(readdirSync(dir)).toEqual([path.basename(telemetryPathFor(to))]);

    rmSync(telemetryPathFor(to), { recursive: true });
    const report = copyCatalog(from, to);
    expect(report.verified).toBe(true);
    // One learned example and the 44 author examples the example library's evals/ files hold.
    expect(report.rows['usage_examples']).toBe(45);
    expect(readdirSync(dir).sort()).toEqual(
      [path.basename(to), path.basename(telemetryPathFor(to))].sort(),
    );
    const router = new Router({ catalog: to, record: false });
    try {
      expect(router.search({ query: 'merge pdf files' }).candidates.length).toBeGreaterThan(0);
    } finally {
      router.close();
    }
  });

  it('refuses a target that already holds a catalog, and leaves it untouched', () => {
    const from = sourceWithTelemetry();
    const to = path.join(tmpDir(), 'copy.sqlite');
    copyCatalog(from, to);
    const before = readFileSync(to);
    expect(() => copyCatalog(from, to)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(readFileSync(to).equals(before)).toBe(true);
    // No temporary file of the refused copy is left (a reader's -wal/-shm aside).
    expect(readdirSync(path.dirname(to)).filter((n) => n.includes('.copy-'))).toEqual([]);
  });
});

describe.skipIf(!hasPg())('catalog copy into PostgreSQL', () => {
  it('rolls the whole copy back when the telemetry side fails, and a rerun then copies everything', () => {
    const from = sourceWithTelemetry();
    const side = telemetryPathFor(from);
    const good = readFileSync(side);
    // A damaged telemetry file at the source: its tables cannot be read.
    writeFileSync(side, Buffer.alloc(good.length, 0x41));
    const to = freshPgDatabase();
    expect(() => copyCatalog(from, to)).toThrow();
    writeFileSync(side, good);
    const report = copyCatalog(from, to);
    expect(report.verified).toBe(true);
    // One learned example and the 44 author examples the example library's evals/ files hold.
    expect(report.rows['usage_examples']).toBe(45);
  });
});
