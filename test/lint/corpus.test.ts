/**
 * Lint on the 1,206-skill real corpus (shared/bench/corpus-real; issue #24 "Done when"): the default
 * run prints fewer than 200 findings, and nothing is lost — every finding the checks made is
 * printed or folded into a printed family or field group (one fingerprint each). Skipped, saying
 * why, when the bench data is not there.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintLibrary } from '../../src/lint/index.js';
import { tmpDir } from '../support/cli.js';

const CORPUS = path.resolve(__dirname, '../../../shared/bench/corpus-real');
const missing = existsSync(CORPUS) ? undefined : `no corpus at ${CORPUS}`;
if (missing !== undefined) console.warn(`skipping the corpus-real lint test: ${missing}`);

describe.skipIf(missing !== undefined)('lint on corpus-real', () => {
  it('prints fewer than 200 findings, every other one folded into a family or field group', () => {
    const dir = tmpDir();
    const r = lintLibrary({
      scopes: [CORPUS],
      home: path.join(dir, 'no-home'),
      project: path.join(dir, 'no-project'),
      tmpDir: dir,
    });
    expect(r.skills).toBeGreaterThan(1100);
    expect(r.findings.length).toBeLessThan(200);
    const printed = r.findings.reduce((n, f) => n + f.fingerprints.length, 0);
    expect(printed).toBe(r.summary.raw);
    expect(r.summary.grouped.folded).toBeGreaterThan(2000);
    // The templated family is one finding naming its size.
    const family = r.findings.filter(
      (f) => f.code === 'CONFUSABLE' && f.details['kind'] === 'near-duplicate-family',
    );
    expect(family.map((f) => f.details['family_size'])).toContain(731);
    // Slow by nature: indexes 1,206 real skills with bodies.
  }, 300_000);
});
