/**
 * Unknown option keys are refused by every public entry point that takes an options object:
 * INVALID_ARGUMENT whose details name the entry point and the key (a misspelt option never passes
 * silently and never reaches the file system or the catalog). Also the helper itself.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Router,
  auditCascade,
  buildCascade,
  changeLifecycle,
  crawlCascade,
  discoverSkills,
  enrichSkills,
  getCatalogStatus,
  getGenerations,
  indexCatalog,
  lintSubstrate,
  loadSkillFile,
  planEnrichment,
  publishCatalog,
  readSubstrate,
  readTextCapped,
  resolveScopes,
  applyListing,
  buildLock,
  checkLock,
  claudeCodeBudget,
  codexBudget,
  diffGenerations,
  diffSkill,
  forgetExamples,
  learnExamples,
  learnFromHost,
  lintLibrary,
  listExamples,
  listingReport,
  renderSarif,
  renderTriggerSarif,
  rollbackCatalog,
  undoListing,
  verifyLock,
} from '../src/internal.js';
import { assertKnownOptions, optionKeys } from '../src/errors.js';
import { REPO, tmpDir } from './support/cli.js';

const EXAMPLES = path.join(REPO, 'examples');
const NOWHERE = path.join(REPO, 'no-such-folder');

/** Runs `fn` and returns the SkilldexError it throws (failing when it throws nothing). */
function thrown(fn: () => unknown): { code: string; details: Record<string, unknown> } {
  try {
    fn();
  } catch (err) {
    return err as { code: string; details: Record<string, unknown> };
  }
  throw new Error('expected a throw');
}

// Each entry point with valid options plus one misspelt key. The other arguments point nowhere
// on purpose: the option check must come first, before any file or catalog is touched.
const CASES: [string, (bad: Record<string, unknown>) => unknown][] = [
  ['discoverSkills', (bad) => discoverSkills({ scopes: [NOWHERE], ...bad })],
  ['resolveScopes', (bad) => resolveScopes({ scopes: [NOWHERE], ...bad })],
  [
    'loadSkillFile',
    (bad) =>
      loadSkillFile(
        { path: 'x/SKILL.md', realPath: NOWHERE, scope: 'custom', scopePath: NOWHERE },
        { maxBytes: 10, ...bad },
      ),
  ],
  ['readTextCapped', (bad) => readTextCapped(NOWHERE, { maxBytes: 10, ...bad })],
  [
    'planEnrichment',
    (bad) => planEnrichment({ home: NOWHERE, cwd: NOWHERE, brief: 'b', target: 't', ...bad }),
  ],
  [
    'enrichSkills',
    (bad) => enrichSkills({ home: NOWHERE, cwd: NOWHERE, brief: 'b', target: 't', ...bad }),
  ],
  ['crawlCascade', (bad) => crawlCascade(NOWHERE, 'need', { maxIndexBytes: 100, ...bad })],
  ['buildCascade', (bad) => buildCascade(NOWHERE, { check: true, ...bad })],
  ['auditCascade', (bad) => auditCascade(NOWHERE, { maxDepth: 3, ...bad })],
  ['readSubstrate', (bad) => readSubstrate('payments', { root: NOWHERE, ...bad })],
  ['lintSubstrate', (bad) => lintSubstrate({ root: NOWHERE, ...bad })],
  ['Router', (bad) => new Router({ catalog: path.join(NOWHERE, 'c.sqlite'), ...bad })],
  [
    'indexCatalog',
    (bad) => indexCatalog({ catalog: path.join(NOWHERE, 'c.sqlite'), scopes: [NOWHERE], ...bad }),
  ],
  ['publishCatalog', (bad) => publishCatalog({ catalog: path.join(NOWHERE, 'c.sqlite'), ...bad })],
  [
    'changeLifecycle',
    (bad) =>
      changeLifecycle({
        catalog: path.join(NOWHERE, 'c.sqlite'),
        skill_id: 'x',
        to: 'archived',
        ...bad,
      }),
  ],
  [
    'getCatalogStatus',
    (bad) => getCatalogStatus({ catalog: path.join(NOWHERE, 'c.sqlite'), ...bad }),
  ],
  ['getGenerations', (bad) => getGenerations({ catalog: path.join(NOWHERE, 'c.sqlite'), ...bad })],
  // Issue 33 item 8: the entry points that did not check their keys before.
  [
    'rollbackCatalog',
    (bad) => rollbackCatalog({ catalog: path.join(NOWHERE, 'c.sqlite'), ...bad }),
  ],
  ['lintLibrary', (bad) => lintLibrary({ scopes: [NOWHERE], ...bad })],
  ['buildLock', (bad) => buildLock({ lockFile: path.join(NOWHERE, 'l.json'), ...bad })],
  ['checkLock', (bad) => checkLock({ lockFile: path.join(NOWHERE, 'l.json'), ...bad })],
  ['verifyLock', (bad) => verifyLock({ lockFile: path.join(NOWHERE, 'l.json'), ...bad })],
  ['diffGenerations', (bad) => diffGenerations({ catalog: path.join(NOWHERE, 'c'), ...bad })],
  ['diffSkill', (bad) => diffSkill({ catalog: path.join(NOWHERE, 'c'), skill_id: 'x', ...bad })],
  [
    'learnExamples',
    (bad) => learnExamples({ catalog: path.join(NOWHERE, 'c'), text: '', file: 'f', ...bad }),
  ],
  ['listExamples', (bad) => listExamples({ catalog: path.join(NOWHERE, 'c'), ...bad })],
  ['forgetExamples', (bad) => forgetExamples({ catalog: path.join(NOWHERE, 'c'), ...bad })],
  [
    'learnFromHost',
    (bad) => learnFromHost({ catalog: path.join(NOWHERE, 'c'), host: 'claude-code', ...bad }),
  ],
  [
    'listingReport',
    (bad) => listingReport({ host: 'codex', home: NOWHERE, env: {}, ...bad } as never),
  ],
  ['applyListing', (bad) => applyListing({ host: 'codex', home: NOWHERE, env: {}, ...bad }, [])],
  ['undoListing', (bad) => undoListing({ host: 'codex', home: NOWHERE, env: {}, ...bad })],
  ['claudeCodeBudget', (bad) => claudeCodeBudget({ fraction: 0.02, ...bad })],
  ['codexBudget', (bad) => codexBudget({ contextTokens: 1000, ...bad })],
  [
    'renderSarif',
    (bad) => renderSarif({} as never, { baseDir: NOWHERE, toolVersion: '0', ...bad }),
  ],
  [
    'renderTriggerSarif',
    (bad) => renderTriggerSarif({} as never, { baseDir: NOWHERE, toolVersion: '0', ...bad }),
  ],
];

describe('every public entry point that takes options', () => {
  it.each(CASES)('%s refuses an unknown key, naming it', (where, call) => {
    const err = thrown(() => call({ maxbytes: 5 }));
    expect(err).toMatchObject({ code: 'INVALID_ARGUMENT', details: { where, option: 'maxbytes' } });
  });

  it.each([
    ['discoverSkills', () => discoverSkills(null as never)],
    ['readSubstrate', () => readSubstrate('payments', 'root' as never)],
    ['Router', () => new Router([] as never)],
    ['indexCatalog', () => indexCatalog(42 as never)],
  ] as [string, () => unknown][])('%s refuses options that are not an object', (where, call) => {
    expect(thrown(call)).toMatchObject({ code: 'INVALID_ARGUMENT', details: { where } });
  });

  it('accepts the known keys (the check passes and the call goes on to its own errors)', () => {
    // A known key set reaches the real work: here, a cascade root that does not exist.
    expect(thrown(() => crawlCascade(NOWHERE, 'need', { maxIndexBytes: 100 }))).toMatchObject({
      code: 'FILE_NOT_FOUND',
    });
    expect(
      discoverSkills({ scopes: [path.join(EXAMPLES, 'skills')], maxBytes: 1 << 20 }).skills.length,
    ).toBeGreaterThan(0);
    const catalog = path.join(tmpDir('skilldex-options-'), 'c.sqlite');
    const report = indexCatalog({
      catalog,
      scopes: [path.join(EXAMPLES, 'skills')],
      maxDepth: 8,
      publish: true,
    });
    expect(report.publish).not.toBeNull();
    const router = new Router({ catalog, telemetry: false });
    router.close();
  });
});

describe('assertKnownOptions', () => {
  it('passes known keys and undefined options', () => {
    expect(() => assertKnownOptions({ a: 1 }, ['a', 'b'], 'f')).not.toThrow();
    expect(() => assertKnownOptions({}, [], 'f')).not.toThrow();
    expect(() => assertKnownOptions(undefined, ['a'], 'f')).not.toThrow();
  });

  it('names the first unknown key and the entry point', () => {
    const err = thrown(() => assertKnownOptions({ a: 1, c: 2, d: 3 }, ['a', 'b'], 'f'));
    expect(err).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { where: 'f', option: 'c', allowed: ['a', 'b'] },
    });
  });

  it.each([null, 'x', 3, [], true])('refuses %j as options', (value) => {
    expect(thrown(() => assertKnownOptions(value, ['a'], 'f'))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { where: 'f' },
    });
  });

  it('optionKeys lists the keys, frozen', () => {
    const keys = optionKeys<{ a?: number; b: string }>()('a', 'b');
    expect(keys).toEqual(['a', 'b']);
    expect(Object.isFrozen(keys)).toBe(true);
  });
});
