/**
 * Policy bm25f.v5 (docs/ranking.md §13): v4's parameter set over the same stored document plus the
 * near-miss re-rank stage (RERANK_NEARMISS_V1) over the engine's top 10, its confidence model
 * (NEARMISS_CONFIDENCE_V1) and the hook's rule (NEARMISS_HOOK_RULE). Checked here: v5 is the
 * default; its answer is the stage applied to v4's ranking of the same catalog (whatever the limit:
 * the engine ranks the stage's depth), with the stage's part in each re-ranked candidate's
 * explanation; its confidences are the stage's model over the re-ranked list; the hook reads its
 * rule from the policy (v5's floors and "stop at the first below", v4's rule unchanged), never
 * names a skill the trust bound held back, and stays silent on chit-chat over the examples and a
 * 200-skill library. The property (fast path = brute force) covers v5 in policy-v4.test.ts and
 * trust-bound.test.ts; its golden is golden/frozen-v5.json (frozen-policies.test.ts).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_POLICY_ID,
  POLICY_V4_ID,
  POLICY_V5_ID,
  Router,
  indexCatalog,
  type Bm25fExplanation,
  type SearchResult,
} from '../../src/internal.js';
import { suggest } from '../../src/hook/suggest.js';
import { hookRuleOf, isSmallTalk } from '../../src/router/index.js';
import {
  NEARMISS_CONFIDENCE_V1,
  NEARMISS_HOOK_RULE,
  RERANK_NEARMISS_V1,
  nearmissConfidenceFeatures,
  nearmissConfidenceOf,
  rerankNearMiss,
  type RerankCandidate,
} from '../../src/router/search/stages/rerank-nearmiss.js';
import { BM25F_V4 } from '../../src/router/search/policies/bm25f-v4.js';
import { BM25F_V5 } from '../../src/router/search/policies/bm25f-v5.js';
import { REPO, runCli, tmpDir, writeTree } from '../support/cli.js';
import { NOW, ON_PG, skillText } from '../catalog/support.js';

const EXAMPLES = path.join(REPO, 'examples', 'skills');

const QUERIES = [
  'extract tables from a pdf',
  'deploy to kubernetes',
  'write a commit message for my git changes',
  'summarize meeting notes',
  'validate a json schema',
  'clean up a messy csv export and chart it',
  'review this pull request for security problems',
  'draft release notes from the changelog',
  'kuberntes',
  'test',
];

const CHIT_CHAT = ['hi there', 'thanks!', 'what time is it'];

const routers: Router[] = [];
afterAll(() => routers.forEach((r) => r.close()));

function open(scopes: readonly string[], policy?: string): Router {
  const catalog = path.join(tmpDir('skilldex-v5-'), 'catalog.sqlite');
  indexCatalog({
    catalog,
    scopes: [...scopes],
    now: NOW,
    ...(policy === undefined ? {} : { policy }),
  });
  const router = new Router({ catalog, telemetry: false, now: NOW });
  routers.push(router);
  return router;
}

const ids = (r: SearchResult): string[] => r.candidates.map((c) => c.skill_id);
const stagesOf = (c: SearchResult['candidates'][number]) =>
  (c.explanation as Bm25fExplanation).stages;

describe('bm25f.v5 as a parameter set', () => {
  it('is v4 with the stage, its confidence model and the hook rule: the same analyzer and document', () => {
    expect(DEFAULT_POLICY_ID).toBe(POLICY_V5_ID);
    expect(Object.isFrozen(BM25F_V5)).toBe(true);
    const { stages, confidence, hook, provenance } = BM25F_V5;
    const without = (p: object, keys: readonly string[]): object =>
      Object.fromEntries(Object.entries(p).filter(([k]) => !keys.includes(k)));
    const own = ['id', 'stages', 'confidence', 'hook', 'authorEvidence', 'provenance'];
    expect(without(BM25F_V5, own)).toEqual(without(BM25F_V4, own));
    expect(stages).toEqual([RERANK_NEARMISS_V1]);
    expect(confidence).toMatchObject({ ...NEARMISS_CONFIDENCE_V1, features: 'nearmiss' });
    expect(hook).toEqual({ ...NEARMISS_HOOK_RULE, silent_on_small_talk: true });
    // Every constant says where it came from.
    for (const k of ['stages', 'confidence', 'hook'] as const)
      expect(provenance[k]).toMatch(/leave-one-repository-out|LORO/);
    expect(BM25F_V4.stages).toBeUndefined();
    expect(BM25F_V4.hook).toBeUndefined();
    // Author evidence stays off, on its cross-validated figures (docs/ranking.md §9a).
    expect(BM25F_V5.authorEvidence).toBe(false);
    expect(provenance.authorEvidence).toMatch(/leave-one-repository-out/);
    expect(BM25F_V4.authorEvidence).toBeUndefined();
  });
});

describe.skipIf(ON_PG)(
  'the CLI: index publishes under v5 by default; --policy v4 still selects v4',
  () => {
    it.each([
      [[] as string[], POLICY_V5_ID],
      [['--policy', POLICY_V4_ID], POLICY_V4_ID],
    ])('index %j → search --json names %s', async (extra, policy) => {
      const catalog = path.join(tmpDir('skilldex-v5-cli-'), 'catalog.sqlite');
      const idx = await runCli(['index', '--catalog', catalog, '--scope', EXAMPLES, ...extra]);
      expect(idx.code).toBe(0);
      const r = await runCli([
        'search',
        '--catalog',
        catalog,
        'extract tables from a pdf',
        '--json',
      ]);
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout) as SearchResult;
      expect(out.policy).toBe(policy);
      expect(out.candidates[0]!.skill_id).toBe('pdf-toolkit');
      // Only v5's explanations carry the stage's part.
      expect(stagesOf(out.candidates[0]!) !== undefined).toBe(policy === POLICY_V5_ID);
    });
  },
);

describe.skipIf(ON_PG)('bm25f.v5 over the examples', () => {
  let v5: Router;
  let v4: Router;
  beforeAll(() => {
    v5 = open([EXAMPLES]);
    v4 = open([EXAMPLES], POLICY_V4_ID);
  });

  it('new catalogs are published under v5; a v5 catalog ranks under v4 exactly as a v4 catalog (one stored document)', () => {
    for (const query of QUERIES) {
      expect(v5.search({ query }).policy).toBe(POLICY_V5_ID);
      const asV4 = v5.search({ query, limit: 20, policy: POLICY_V4_ID });
      const own = v4.search({ query, limit: 20 });
      expect(asV4.policy).toBe(POLICY_V4_ID);
      expect(asV4.candidates.map((c) => [c.skill_id, c.score, c.explanation])).toEqual(
        own.candidates.map((c) => [c.skill_id, c.score, c.explanation]),
      );
    }
  });

  it("answers the stage applied to v4's top 10, whatever the limit, with the stage's part in each explanation", () => {
    for (const query of QUERIES) {
      const base = v5.search({ query, limit: 20, policy: POLICY_V4_ID });
      const staged = rerankNearMiss(
        query,
        base.candidates as unknown as readonly RerankCandidate[],
        RERANK_NEARMISS_V1,
      );
      const want = staged.map((r) => r.candidate.skill_id);
      for (const limit of [1, 2, 3, 5, 10, 20]) {
        const r = v5.search({ query, limit });
        expect(ids(r), `${query} limit ${limit}`).toEqual(want.slice(0, limit));
      }
      const r = v5.search({ query, limit: 20 });
      r.candidates.forEach((c, i) => {
        const s = staged[i]!;
        // Scores are v4's: the stage orders, it does not rescore.
        expect(c.score).toBe(s.candidate.score);
        if (i < RERANK_NEARMISS_V1.depth) {
          expect(stagesOf(c)).toEqual([
            expect.objectContaining({
              stage: RERANK_NEARMISS_V1.id,
              before: s.before,
              score: s.rerank,
            }),
          ]);
          expect(stagesOf(c)![0]!.features['redirect_target']).toBe(s.features[7]);
        } else expect(stagesOf(c)).toBeUndefined();
      });
    }
  });

  it("gives each candidate the stage model's confidence over the re-ranked list, the same for every limit", () => {
    for (const query of [...QUERIES, ...CHIT_CHAT]) {
      const base = v5.search({ query, limit: 20, policy: POLICY_V4_ID });
      const staged = rerankNearMiss(
        query,
        base.candidates as unknown as readonly RerankCandidate[],
        RERANK_NEARMISS_V1,
      );
      // The model's own figure, capped by the one above (non-increasing down the list).
      let above = 1;
      const want = staged.slice(0, 3).map((_, i) => {
        const own = nearmissConfidenceOf(
          NEARMISS_CONFIDENCE_V1,
          nearmissConfidenceFeatures(query, staged, i),
        );
        above = Math.min(above, own);
        return above;
      });
      for (const limit of [3, 8, 20]) {
        const r = v5.search({ query, limit });
        expect(
          r.candidates.slice(0, 3).map((c) => c.confidence),
          `${query} limit ${limit}`,
        ).toEqual(want);
        expect(r.min_confidence).toBe(NEARMISS_CONFIDENCE_V1.floor);
        expect(r.abstain).toBe(!r.candidates.some((c) => c.confidence >= r.min_confidence));
      }
    }
  });

  it('abstains when its first candidate is below the floor: no lower candidate is more confident than one above it', () => {
    // A short list: the model reads the last candidate's lead over nothing as a full lead.
    const lib = tmpDir('skilldex-v5-small-');
    writeTree(lib, {
      'pdf-toolkit/SKILL.md': skillText('pdf-toolkit', {
        description: 'Extract text and tables from PDF files, merge and split PDF pages.',
      }),
      'csv-cleaner/SKILL.md': skillText('csv-cleaner', {
        description: 'Clean CSV files: fix delimiters, encodings and duplicate rows.',
      }),
      'email-drafter/SKILL.md': skillText('email-drafter', {
        description: 'Draft polite professional emails and replies.',
      }),
    });
    const small = open([lib]);
    let abstained = 0;
    for (const query of ['fix the text', 'polite text', 'split the rows']) {
      const r = small.search({ query });
      expect(r.candidates.length, query).toBeGreaterThan(1);
      r.candidates.forEach((c, i) => {
        if (i > 0) expect(c.confidence, query).toBeLessThanOrEqual(r.candidates[i - 1]!.confidence);
      });
      expect(r.abstain).toBe(r.candidates[0]!.confidence < r.min_confidence);
      if (r.abstain) abstained++;
    }
    expect(abstained).toBeGreaterThan(0);
  });

  it('the hook stays silent on chit-chat', () => {
    const home = tmpDir('skilldex-v5-home-');
    for (const query of CHIT_CHAT) {
      const a = suggest(v5, query, { host: 'generic', home, env: {} });
      expect(a.policy).toBe(POLICY_V5_ID);
      expect(a.suggestions, query).toEqual([]);
    }
    // v4 keeps its rule: it has no small-talk check (its confidence names email-drafter here).
    const v4hook = suggest(v4, 'hi there', { host: 'generic', home, env: {} });
    expect(v4hook.policy).toBe(POLICY_V4_ID);
    expect(v4hook.suggestions.map((s) => s.skill_id)).toEqual(
      v4
        .search({ query: 'hi there', limit: 10 })
        .candidates.filter((c) => c.confidence >= 0.6)
        .map((c) => c.skill_id)
        .slice(0, 3),
    );
    // …and names a skill for a real request.
    const pdf = suggest(v5, 'extract tables from a pdf', { host: 'generic', home, env: {} });
    expect(pdf.suggestions[0]?.skill_id).toBe('pdf-toolkit');
  });
});

// 40 topics × 5 kinds of skill: 200 skills written as people write them.
const TOPICS = [
  ['pdf', 'PDF documents, forms and scanned pages'],
  ['invoice', 'invoices, receipts and billing records'],
  ['kubernetes', 'Kubernetes clusters, pods and Helm charts'],
  ['terraform', 'Terraform modules and cloud infrastructure'],
  ['react', 'React components, hooks and state'],
  ['postgres', 'PostgreSQL schemas, queries and indexes'],
  ['redis', 'Redis caches and key expiry'],
  ['kafka', 'Kafka topics, consumers and partitions'],
  ['docker', 'Docker images, Dockerfiles and compose files'],
  ['git', 'git branches, rebases and merge conflicts'],
  ['jira', 'Jira tickets, sprints and boards'],
  ['slack', 'Slack channels, messages and bots'],
  ['figma', 'Figma designs, frames and design tokens'],
  ['stripe', 'Stripe payments, subscriptions and webhooks'],
  ['graphql', 'GraphQL schemas, resolvers and queries'],
  ['python', 'Python packages, virtualenvs and type hints'],
  ['rust', 'Rust crates, borrow checker errors and cargo'],
  ['golang', 'Go modules, goroutines and interfaces'],
  ['java', 'Java classes, Maven builds and the JVM'],
  ['swift', 'Swift apps, SwiftUI views and Xcode projects'],
  ['android', 'Android apps, Gradle builds and activities'],
  ['s3', 'S3 buckets, objects and lifecycle rules'],
  ['lambda', 'AWS Lambda functions and their triggers'],
  ['excel', 'Excel workbooks, formulas and pivot tables'],
  ['csv', 'CSV files, delimiters and encodings'],
  ['markdown', 'Markdown documents, tables and links'],
  ['latex', 'LaTeX papers, equations and bibliographies'],
  ['video', 'video files, clips, subtitles and transcoding'],
  ['audio', 'audio recordings, podcasts and waveforms'],
  ['image', 'images, photos, resizing and compression'],
  ['email', 'email campaigns, newsletters and inbox rules'],
  ['calendar', 'calendar events, meeting invites and time zones'],
  ['chart', 'charts, plots and axis labels'],
  ['dashboard', 'dashboards, panels and KPIs'],
  ['log', 'application logs, stack traces and log levels'],
  ['metrics', 'Prometheus metrics, alerts and SLOs'],
  ['tracing', 'distributed traces, spans and OpenTelemetry'],
  ['unit-test', 'unit tests, fixtures and mocks'],
  ['lint', 'linters, formatters and style rules'],
  ['api', 'REST APIs, endpoints and OpenAPI specs'],
] as const;
const KINDS = [
  ['builder', 'Create or scaffold new', 'from a short spec'],
  ['debugger', 'Find and fix problems in', 'when something fails or behaves oddly'],
  ['reviewer', 'Review', 'for mistakes, risks and style before they ship'],
  ['migrator', 'Migrate and upgrade', 'between versions or providers'],
  ['reporter', 'Summarise and report on', 'as a short written summary'],
] as const;

describe.skipIf(ON_PG)('bm25f.v5 over a 200-skill library', () => {
  let router: Router;
  let home: string;
  beforeAll(() => {
    const root = tmpDir('skilldex-v5-200-');
    const files: Record<string, string> = {};
    for (const [topic, what] of TOPICS)
      for (const [kind, verb, when] of KINDS) {
        const name = `${topic}-${kind}`;
        files[path.join(name, 'SKILL.md')] = skillText(name, {
          description: `${verb} ${what} ${when}. Use when the user works with ${topic}.`,
          keywords: [topic, kind],
          body: `# ${name}\n\n${verb} ${what}.\n\n## Steps\n\n1. Read the ${topic} input.\n2. ${verb} it ${when}.\n3. Report what changed.\n`,
        });
      }
    writeTree(root, files);
    expect(Object.keys(files)).toHaveLength(200);
    router = open([root]);
    home = tmpDir('skilldex-v5-200-home-');
  });

  it('the hook stays silent on chit-chat and names the skill of a clear request', () => {
    for (const query of CHIT_CHAT) {
      const a = suggest(router, query, { host: 'generic', home, env: {} });
      expect(a.policy).toBe(POLICY_V5_ID);
      expect(a.suggestions, query).toEqual([]);
    }
    const a = suggest(router, 'review my terraform modules for risks before they ship', {
      host: 'generic',
      home,
      env: {},
    });
    expect(a.suggestions[0]?.skill_id).toBe('terraform-reviewer');
  });
});

// A router whose answers are given (the hook reads only search, getSkill and locate of it).
function fakeRouter(policy: string, cands: readonly [string, number, string?][]): Router {
  const result: SearchResult = {
    catalog_generation: 'sha256:gen',
    policy,
    query: 'q',
    min_confidence: hookRuleOf(policy).f1,
    abstain: false,
    candidates: cands.map(([id, confidence, role]) => ({
      skill_id: id,
      skill_version: '1',
      revision_id: `rev-${id}`,
      catalog_generation: 'sha256:gen',
      name: id,
      description: `Does ${id} things for the user.`,
      state: 'active',
      score: 1,
      confidence,
      explanation: {
        policy,
        query_tokens: [],
        base: 1,
        telemetry: { suggestions: 0, fetches: 0, multiplier: 1 },
        lifecycle: { state: 'active', multiplier: 1 },
        final: 1,
        ...(role === undefined
          ? {}
          : { trust_bound: { k: 10, role: role as 'held_back', skill: 'x' } }),
      } as unknown as Bm25fExplanation,
    })),
  };
  return {
    search: () => result,
    getSkill: () => ({ frontmatter: {} }),
    locate: () => new Map(),
  } as unknown as Router;
}

describe("the hook reads its rule from the answer's policy", () => {
  const named = (policy: string, cands: readonly [string, number, string?][], max?: number) =>
    suggest(fakeRouter(policy, cands), 'q', {
      host: 'generic',
      home: '/nonexistent-home',
      env: {},
      ...(max === undefined ? {} : { max }),
    }).suggestions.map((s) => s.skill_id);

  it('v5: rank 1 at 0.45, the next at 0.25, at most 3, stopping at the first below', () => {
    expect(hookRuleOf(POLICY_V5_ID)).toEqual({
      f1: 0.45,
      f2: 0.25,
      k: 3,
      contiguous: true,
      smallTalk: true,
    });
    expect(
      named(POLICY_V5_ID, [
        ['a', 0.5],
        ['b', 0.3],
        ['c', 0.26],
        ['d', 0.9],
      ]),
    ).toEqual(['a', 'b', 'c']);
    expect(
      named(POLICY_V5_ID, [
        ['a', 0.44],
        ['b', 0.9],
      ]),
    ).toEqual([]);
    expect(
      named(POLICY_V5_ID, [
        ['a', 0.5],
        ['b', 0.2],
        ['c', 0.4],
      ]),
    ).toEqual(['a']);
    // A user's floor (trusted config) is every rank's floor; a user's max is kept.
    expect(
      suggest(
        fakeRouter(POLICY_V5_ID, [
          ['a', 0.5],
          ['b', 0.3],
        ]),
        'q',
        {
          host: 'generic',
          home: '/nonexistent-home',
          env: {},
          minConfidence: 0.4,
        },
      ).suggestions.map((s) => s.skill_id),
    ).toEqual(['a']);
    expect(
      named(
        POLICY_V5_ID,
        [
          ['a', 0.9],
          ['b', 0.9],
          ['c', 0.9],
        ],
        2,
      ),
    ).toEqual(['a', 'b']);
  });

  it('v4 keeps its rule: every candidate at or above the floor 0.60, at most 3', () => {
    expect(hookRuleOf(POLICY_V4_ID)).toEqual({
      f1: 0.6,
      f2: 0.6,
      k: 3,
      contiguous: false,
      smallTalk: false,
    });
    expect(
      named(POLICY_V4_ID, [
        ['a', 0.7],
        ['b', 0.5],
        ['c', 0.65],
        ['d', 0.61],
        ['e', 0.99],
      ]),
    ).toEqual(['a', 'c', 'd']);
    expect(named(POLICY_V4_ID, [['a', 0.5]])).toEqual([]);
  });

  it('never names a skill the trust bound held back, though its capped confidence clears v5’s floors', () => {
    expect(
      named(POLICY_V5_ID, [
        ['first', 0.7],
        ['poisoned', 0.5999, 'held_back'],
        ['other', 0.3],
      ]),
    ).toEqual(['first', 'other']);
  });
});

describe('isSmallTalk', () => {
  it('is true only when every word is a stop-word or small talk', () => {
    for (const q of [...CHIT_CHAT, 'Good morning!', 'how are you doing today', 'ok cool, thx'])
      expect(isSmallTalk(q), q).toBe(true);
    for (const q of [
      '',
      '   ',
      'time this function',
      'thanks, now deploy to kubernetes',
      'hi, merge these pdfs',
    ])
      expect(isSmallTalk(q), q).toBe(false);
  });
});
