/**
 * `lintSubstrate` and `skilldex substrate lint` (docs/substrate.md): the example substrate is clean;
 * a broken fixture shows each disagreement between rows and files as its coded problem.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSubstrate } from '../../src/substrate/index.js';
import { REPO, runCli } from '../support/cli.js';

const EXAMPLE = path.join(REPO, 'examples', 'substrate');
const BROKEN = path.join(__dirname, 'fixtures', 'lint', 'broken', 'substrate');

describe('lintSubstrate', () => {
  it('finds the example substrate clean', () => {
    const report = lintSubstrate({ root: EXAMPLE });
    expect(report.problems).toEqual([]);
    expect(report.clean).toBe(true);
    expect(report.types.map((t) => [t.type, t.rows, t.entry_files])).toEqual([
      ['anti-pattern', 4, 4],
      ['adr', 4, 4],
      ['solution', 4, 4],
      ['vocabulary', 4, 4],
      ['reviewer', 5, 5],
    ]);
  });

  it('reports every disagreement between rows and files', () => {
    const report = lintSubstrate({ root: BROKEN });
    expect(report.clean).toBe(false);
    expect(report.problems.map((p) => [p.code, p.path])).toEqual([
      ['MALFORMED_FRONTMATTER', 'anti-pattern/ap-1.md'],
      ['MISSING_SUMMARY', 'anti-pattern/ap-2.md'],
      ['FIELD_TYPE', 'anti-pattern/ap-3.md'],
      ['FIELD_TYPE', 'anti-pattern/ap-3.md'],
      ['DUPLICATE_ID', 'adr/INDEX.md'],
      ['MISSING_PATH', 'adr/INDEX.md'],
      ['MISSING_ENTRY', 'adr/INDEX.md'],
      ['PATH_OUTSIDE_ROOT', 'adr/INDEX.md'],
      ['ORPHAN_ENTRY', 'adr/adr-3.md'],
      ['ORPHAN_ENTRY', 'adr/orphan.md'],
      ['MISSING_INDEX', 'solution/INDEX.md'],
      ['ORPHAN_ENTRY', 'solution/loose.md'],
      ['MISSING_INDEX', 'vocabulary/'],
      ['MALFORMED_ROW', 'reviewer/INDEX.md'],
      ['MALFORMED_ROW', 'reviewer/INDEX.md'],
      ['ORPHAN_ENTRY', 'reviewer/nested/deep.md'],
    ]);
  });

  it('checks one type with type', () => {
    const report = lintSubstrate({ root: BROKEN, type: 'reviewer' });
    expect(report.types.map((t) => t.type)).toEqual(['reviewer']);
    expect(report.problems.map((p) => p.code)).toEqual([
      'MALFORMED_ROW',
      'MALFORMED_ROW',
      'ORPHAN_ENTRY',
    ]);
  });

  it('refuses unknown options', () => {
    expect(() => lintSubstrate({ root: EXAMPLE, fix: true } as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });
});

describe('skilldex substrate lint', () => {
  it('exits 0 on a clean substrate and 1 when problems are found', async () => {
    expect((await runCli(['substrate', 'lint', '--root', 'examples/substrate'])).code).toBe(0);
    const r = await runCli(['substrate', 'lint', '--root', BROKEN, '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ clean: false });
  });

  it('finds the substrate/ folder above the current folder without --root', async () => {
    const r = await runCli(['substrate', 'lint', '--json'], { cwd: path.join(REPO, 'examples') });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ root: EXAMPLE, clean: true });
  });
});
