/**
 * `lintLibrary` (issues #14, #24): discovers the skills of the given scopes, ranks their
 * self-queries through the public Router against a catalog (the one given, or a temporary one built
 * with the default policy under the OS temp folder and removed afterwards), reads telemetry counts
 * when the catalog has a telemetry file, and returns the lint report under the profile asked for,
 * with the suppressions and baseline given applied and counted. Never edits a SKILL.md, never writes
 * to a given catalog (the Router opens it read-only), never records telemetry: the ranker runs with
 * telemetry off. An existing telemetry file is read through TelemetryStore, whose open creates its
 * tables only when they are missing (a no-op on a file the router wrote).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SkilldexError, assertKnownOptions, optionKeys } from '../errors.js';
import { TelemetryStore, isPgLocation, telemetryPathFor } from '../catalog/index.js';
import { readTextCapped } from '../fsx/index.js';
import { Router, indexCatalog } from '../router/index.js';
import { DISCOVER_OPTION_KEYS, discoverOptionsOf, discoverSkills } from '../skills/index.js';
import type { DiscoverOptions, SkillRecord } from '../skills/index.js';
import {
  DEFAULT_THRESHOLDS,
  LINT_CODES,
  PROFILES,
  type LintProfile,
  type LintReport,
  type LintThresholds,
  type RawFinding,
} from './codes.js';
import { lintSkills } from './lint-skills.js';
import { RANKING_CODES, selectCodes } from './only.js';
import { SECURITY_CODES } from './security.js';
import { securityFindings } from './security-inputs.js';
import type { RankFn } from './ranking.js';
import type { LintSkill } from './skill.js';
import type { LintBaseline, LintSuppression } from './suppress.js';

/** Options of `lintLibrary`: the scopes to lint (as for discovery) and where to rank them. */
export interface LintOptions extends DiscoverOptions {
  /**
   * An existing catalog to rank against (read only; its telemetry file, when present, feeds
   * NEVER_FETCHED). Default: a temporary catalog of the discovered skills, default policy.
   */
  readonly catalog?: string;
  /** Overrides of the documented thresholds (DEFAULT_THRESHOLDS). Unknown keys are refused. */
  readonly thresholds?: Partial<LintThresholds>;
  /** Folder for the temporary catalog (default: the OS temp folder). */
  readonly tmpDir?: string;
  /** Progress of the long stages: indexing the temporary catalog, then ranking self-queries. */
  readonly onProgress?: (stage: 'index' | 'rank', done: number, total: number) => void;
  /** `lenient` (default: what hosts load) or `spec` (the agentskills spec strictly). */
  readonly profile?: LintProfile;
  /** Suppression rules (the config file's `lint.ignore`); unknown codes are INVALID_ARGUMENT. */
  readonly suppressions?: readonly LintSuppression[];
  /** A saved report (parseLintBaseline): findings it holds are left out and counted. */
  readonly baseline?: LintBaseline;
  /**
   * Report only these codes (codes or group names such as `security`, only.ts). Checks no selected
   * code needs are not run: without a ranking code no catalog is built or read.
   */
  readonly only?: readonly string[];
}

/** Lints the skills of the given scopes; see the module header. Unknown option keys are refused. */
export function lintLibrary(options: LintOptions = {}): LintReport {
  assertKnownOptions(options, LINT_LIBRARY_OPTION_KEYS, 'lintLibrary');
  const profile = checkOptions(options);
  const thresholds = resolveThresholds(options.thresholds);
  const scan = discoverSkills(discoverOptionsOf(options));
  const relPath = relativeToScope(scan.scopes.map((sc) => sc.path));
  const skills = scan.skills.map(toLintSkill);
  const codes = selectCodes(options.only);
  const wants = (list: readonly string[]): boolean =>
    codes === undefined || list.some((c) => codes.has(c as never));
  // The security group reads bodies and supporting files (security-inputs.ts).
  const security = wants(SECURITY_CODES)
    ? securityFindings(
        scan.skills,
        skills.map((s) => s.text),
      )
    : [];
  const ranking = wants(RANKING_CODES);
  const temp =
    options.catalog === undefined && ranking
      ? mkdtempSync(path.join(options.tmpDir ?? tmpdir(), 'skilldex-lint-'))
      : undefined;
  try {
    const catalog =
      options.catalog ?? (temp !== undefined ? path.join(temp, 'catalog.sqlite') : '');
    if (options.catalog !== undefined && !isPgLocation(catalog) && !existsSync(catalog)) {
      throw new SkilldexError('CATALOG_MISSING', `no catalog at ${catalog}`, { catalog });
    }
    if (temp !== undefined && skills.length > 0) {
      indexCatalog({
        ...discoverOptionsOf(options),
        catalog,
        publish: true,
        ...(options.onProgress
          ? { onProgress: (d: number, n: number) => options.onProgress!('index', d, n) }
          : {}),
      });
    }
    const ranked =
      skills.length > 0 && ranking
        ? rankAgainst(catalog, skills)
        : { skills, extra: [], rank: undefined, policy: () => null, close: () => {} };
    const telemetryFile =
      options.catalog !== undefined && ranking ? telemetryPathFor(catalog) : undefined;
    const telemetry =
      telemetryFile !== undefined && existsSync(telemetryFile)
        ? new TelemetryStore(telemetryFile, () => new Date(0))
        : undefined;
    try {
      const result = lintSkills(
        {
          skills: ranked.skills,
          scan,
          ...(ranked.rank ? { rank: ranked.rank } : {}),
          ...(telemetry ? { history: (id: string) => telemetry.history(id) } : {}),
          extra: [...ranked.extra, ...security],
          textOf: (p: string) => {
            const file = readTextCapped(p, {
              ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
            });
            return file.ok ? file.text : undefined;
          },
          ...(options.onProgress
            ? { onProgress: (d: number, n: number) => options.onProgress!('rank', d, n) }
            : {}),
          profile,
          ...(options.suppressions !== undefined ? { suppressions: options.suppressions } : {}),
          ...(options.baseline !== undefined ? { baseline: options.baseline } : {}),
          ...(codes !== undefined ? { codes } : {}),
          relPath,
        },
        thresholds,
      );
      return {
        skills: skills.length,
        profile,
        catalog: options.catalog ?? null,
        policy: ranked.policy(),
        checks: {
          ranking: ranked.rank !== undefined,
          discovery: true,
          telemetry: telemetry !== undefined,
        },
        thresholds,
        counts: result.counts,
        summary: result.summary,
        listing: result.listing,
        findings: result.findings,
      };
    } finally {
      telemetry?.close();
      ranked.close();
    }
  } finally {
    if (temp !== undefined) rmSync(temp, { recursive: true, force: true });
  }
}

// Refuses an unknown profile (unknown option keys: LINT_LIBRARY_OPTION_KEYS); returns the profile.
function checkOptions(options: LintOptions): LintProfile {
  const profile = options.profile ?? 'lenient';
  if (!PROFILES.includes(profile))
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `lintLibrary: profile must be one of ${PROFILES.join(', ')}, got ${JSON.stringify(profile)}`,
      { option: 'profile', value: profile },
    );
  return profile;
}

// A path as fingerprints spell it: relative to the innermost scope holding it, with `/`, so a
// baseline saved on one checkout holds on another.
function relativeToScope(roots: readonly string[]): (p: string) => string {
  const byDepth = [...roots].sort((a, b) => b.length - a.length);
  return (p) => {
    const root = byDepth.find((r) => p.startsWith(r + path.sep));
    return (root === undefined ? p : path.relative(root, p)).split(path.sep).join('/');
  };
}

/** The thresholds with `overrides` applied; INVALID_ARGUMENT for an unknown key or a bad value. */
export function resolveThresholds(overrides: Partial<LintThresholds> = {}): LintThresholds {
  for (const [key, value] of Object.entries(overrides)) {
    if (!(key in DEFAULT_THRESHOLDS))
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `lint: unknown threshold ${JSON.stringify(key)}`,
        { threshold: key },
      );
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `lint: threshold ${key} must be a number ≥ 0, got ${JSON.stringify(value)}`,
        { threshold: key, value },
      );
    }
  }
  const t = { ...DEFAULT_THRESHOLDS, ...overrides };
  if (!(t.near_duplicate_jaccard > 0 && t.near_duplicate_jaccard <= 1)) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `lint: near_duplicate_jaccard must be in (0, 1], got ${t.near_duplicate_jaccard}`,
      { threshold: 'near_duplicate_jaccard' },
    );
  }
  return Object.freeze(t);
}

function toLintSkill(r: SkillRecord): LintSkill {
  // A second read, for line numbers and separating words only; a file gone since discovery lints
  // without lines.
  const file = readTextCapped(r.real_path, { maxBytes: Math.max(r.size, 1) + 1, label: r.path });
  return {
    skill_id: r.skill_id,
    name: r.name,
    description: r.description,
    ...(r.when_to_use !== undefined ? { when_to_use: r.when_to_use } : {}),
    keywords: r.keywords,
    tags: r.tags,
    path: r.path,
    revision_id: r.revision_id,
    text: file.ok ? file.text : '',
    warnings: r.warnings,
    rankable: true,
    frontmatter: r.frontmatter,
  };
}

// Opens a Router on `catalog` (telemetry off: lint queries are not usage) and marks skills the
// catalog does not serve at their current revision as not rankable, with a CATALOG_STALE finding.
function rankAgainst(
  catalog: string,
  skills: LintSkill[],
): {
  skills: LintSkill[];
  extra: RawFinding[];
  rank: RankFn;
  policy: () => string | null;
  close: () => void;
} {
  const router = new Router({ catalog, telemetry: false });
  const served = new Map<string, { revision_id: string; state: string }>();
  let cursor: string | undefined;
  do {
    const page = router.listSkills({ limit: 1000, ...(cursor !== undefined ? { cursor } : {}) });
    for (const s of page.skills)
      served.set(s.skill_id, { revision_id: s.revision_id, state: s.state });
    cursor = page.next_cursor;
  } while (cursor !== undefined);
  const extra: RawFinding[] = [];
  const out = skills.map((s) => {
    const sv = served.get(s.skill_id);
    const why =
      sv === undefined
        ? 'the catalog does not serve it'
        : sv.revision_id !== s.revision_id
          ? `the catalog serves revision ${sv.revision_id}, not this file's`
          : sv.state !== 'active'
            ? `the catalog has it ${sv.state}`
            : undefined;
    if (why === undefined) return s;
    if (sv?.state !== 'deprecated') {
      extra.push({
        code: 'CATALOG_STALE',
        severity: LINT_CODES.CATALOG_STALE.severity,
        skill_ids: [s.skill_id],
        path: s.path,
        message: `${why}: ranking checks skipped for ${s.skill_id}`,
        fix: 're-index the catalog (skilldex index) or lint without --catalog',
        details: { served_revision: sv?.revision_id ?? null },
      });
    }
    return { ...s, rankable: false };
  });
  let policy: string | null = null;
  const rank: RankFn = (query, limit) => {
    try {
      const r = router.search({ query, limit });
      policy = r.policy;
      return r.candidates.map((c) => ({ skill_id: c.skill_id, score: c.score }));
    } catch (err) {
      // A self-query with nothing to search for ranks nothing; every other failure is real.
      if (err instanceof SkilldexError && err.code === 'INVALID_QUERY') return [];
      throw err;
    }
  };
  return { skills: out, extra, rank, policy: () => policy, close: () => router.close() };
}

/** The keys `lintLibrary` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const LINT_LIBRARY_OPTION_KEYS = optionKeys<NonNullable<Parameters<typeof lintLibrary>[0]>>()(
  ...DISCOVER_OPTION_KEYS,
  'catalog',
  'thresholds',
  'tmpDir',
  'onProgress',
  'profile',
  'suppressions',
  'baseline',
  'only',
);
