/**
 * The skilldex library API: what `import … from 'skilldex'` gives. Small and task-oriented, one
 * documented group per job (route a query, keep the catalog, lint, evaluate, read cascades and the
 * substrate, enrich, lock and verify), each group the functions, their option and report types and
 * the few constants a caller passes or compares against, each taken from its module's barrel. The
 * package-internal barrel (src/internal.ts), which the CLI, the MCP server and the explorer use,
 * re-exports every name here and adds the analysers, policy tables, encoding and file helpers, which
 * are not reachable from outside the package. docs/development.md § "The library API" lists the groups and what left the API.
 */

/**
 * Errors: every failure is a {@link SkilldexError} with a stable `code`; `ERROR_CODES` maps each
 * code to its exit code and hint, `PROBLEM_CODES` the codes of the non-fatal problems in reports.
 */
export {
  ERROR_CODES,
  PROBLEM_CODES,
  SkilldexError,
  isSkilldexError,
  type ErrorCode,
  type ExitCode,
  type Problem,
  type ProblemCode,
} from './errors.js';

/** The package version, read from package.json (what `--version` and the MCP server report). */
export { VERSION } from './version.js';

/**
 * Discovery: find and read SKILL.md files in scopes (folders), the way `skilldex scan` does.
 * `SKILL_FILE` is the file name looked for.
 */
export {
  SKILL_FILE,
  discoverSkills,
  loadSkillFile,
  resolveScopes,
  type DiscoverOptions,
  type ScanReport,
  type Scope,
  type ScopeKind,
  type SkillRecord,
  type SkippedFile,
} from './skills/index.js';

/**
 * Routing: a {@link Router} over a published catalog answers `search`, `fetch` and the served
 * listings; `describeSkill` and `locateSkills` are the `show` and `where` reads. The limits are the
 * bounds `search` accepts; the policy ids name the ranking policies (`DEFAULT_POLICY_ID` is used
 * when none is pinned).
 */
export {
  Router,
  DEFAULT_LIMIT,
  MAX_LIMIT,
  MAX_QUERY_CHARS,
  DEFAULT_POLICY_ID,
  POLICY_ID,
  POLICY_V4_ID,
  POLICY_V5_ID,
  describeSkill,
  locateSkills,
  type RouterOptions,
  type SearchRequest,
  type SearchResult,
  type Candidate,
  type ScoreExplanation,
  type Bm25fExplanation,
  type DroppedToken,
  type FetchRequest,
  type FetchResult,
  type ServedFilesPage,
  type ServedPage,
  type ServedSkill,
  type ServedSkillWithFiles,
  type SkillFile,
  type SkillFiles,
  type RevisionInfo,
  type SkillDetail,
  type SkillLocation,
} from './router/index.js';

/**
 * The catalog's operator side: index scopes into a new generation, publish it, roll back, change a
 * skill's lifecycle, read status and history, watch scopes, copy a catalog, and where a catalog and
 * its telemetry live.
 */
export {
  indexCatalog,
  publishCatalog,
  rollbackCatalog,
  changeLifecycle,
  getCatalogStatus,
  getGenerations,
  readCatalogScopes,
  watchCatalog,
  type IndexOptions,
  type IndexReport,
  type RollbackReport,
  type RememberedScopes,
  type LifecycleReport,
  type CatalogWatch,
  type WatchOptions,
} from './router/index.js';
/** The catalog's own part of that: copy it, find it and its telemetry, and the report shapes. */
export {
  copyCatalog,
  resolveCatalogPath,
  telemetryPathFor,
  type LifecycleState,
  type PublishResult,
  type CatalogStatus,
  type DriftedFile,
  type GenerationCounts,
  type GenerationInfo,
  type IngestSummary,
  type SupportingFilesSummary,
  type CopyReport,
} from './catalog/index.js';

/**
 * Learning and usage: labelled examples that steer routing (learned by hand or from a host's
 * transcripts), the usage counts telemetry records, and the explorer's read model of a catalog.
 */
export {
  learnExamples,
  forgetExamples,
  listExamples,
  learnFromHost,
  LEARN_HOSTS,
  type ForgetReport,
  type LearnReport,
  type HostLearnReport,
  type UsageListReport,
} from './router/index.js';
/** The catalog's own part of that: usage counts, telemetry and the explorer's read model. */
export {
  EXAMPLE_SOURCES,
  listUsage,
  TelemetryReader,
  CatalogExplorer,
  type ExampleSource,
  type EventOrigin,
  type UsageExample,
  type UsageExampleDetail,
  type UsageOrigin,
  type UsageCount,
  type UsageDay,
  type CatalogOverview,
  type GenerationChange,
  type LifecycleStep,
  type RevisionSeen,
  type SkillRecordView,
} from './catalog/index.js';

/** Evaluation: parse a labelled query file and score rankings (`skilldex eval`). */
export {
  parseQueryLines,
  scoreRanking,
  meanMetrics,
  macroAverage,
  type LabelledQuery,
  type Metrics,
} from './router/index.js';

/**
 * Lint: check a library's skills (spec, security, routing reach) and write SARIF. `lintSkills` is
 * the pure core; `atOrAbove` compares severities.
 */
export {
  LINT_CODES,
  DEFAULT_THRESHOLDS as LINT_DEFAULT_THRESHOLDS,
  atOrAbove,
  lintLibrary,
  lintSkills,
  renderSarif,
  type LintCode,
  type LintCounts,
  type LintFinding,
  type LintInput,
  type LintOptions,
  type LintReport,
  type LintSeverity,
  type LintSkill,
  type LintThresholds,
  type SarifLog,
} from './lint/index.js';

/** Trigger evaluations: does each skill's description make the router pick it (`eval-triggers`). */
export {
  evalTriggers,
  parseTriggerBaseline,
  parseTriggerFile,
  renderTriggerJunit,
  renderTriggerSarif,
  type CaseOutcome as TriggerCaseOutcome,
  type GateFailure as TriggerGateFailure,
  type SkillTriggerReport,
  type TriggerBaseline,
  type TriggerEvalOptions,
  type TriggerGates,
  type TriggerReport,
  type TriggerSuggestion,
} from './triggers/index.js';

/** Host listings: what Claude Code and Codex list of a library, within their budgets, and its undo. */
export {
  applyListing,
  undoListing,
  listingReport,
  claudeCodeBudget,
  claudeCodeListing,
  codexBudget,
  codexListing,
  type ListingBudget,
  type ListingControlReport,
  type ListingHost,
  type ListingOptions,
  type ListingReport,
  type ListingResult,
  type ListingSkill,
  type ListingSkillReport,
} from './hosts/index.js';

/**
 * Index cascades: build, audit and crawl trees of `skill-index.md` files, read one as a tree, and
 * the file format's parser and printer. `CRAWL_EXIT_CODES` maps a crawl's outcome to its exit code.
 */
export {
  CRAWL_EXIT_CODES,
  CRAWL_OUTCOMES,
  INDEX_FILE,
  auditCascade,
  buildCascade,
  crawlCascade,
  readCascadeTree,
  parseSkillIndex,
  printSkillIndex,
  parseStamp,
  formatStamp,
  type CascadeTree,
  type CascadeTreeEntry,
  type CascadeTreeNode,
  type TreeOptions,
  type AuditOptions,
  type AuditReport,
  type BuildChange,
  type BuildOptions,
  type BuildReport,
  type CascadeReader,
  type CrawlOptions,
  type CrawlOutcome,
  type CrawlReport,
  type EntryRef,
  type Suggestion,
  type IndexEntry,
  type ParsedIndex,
} from './cascade/index.js';

/** The substrate: find, read, list and lint a project's `.substrate/` notes, and print hits as YAML. */
export {
  SUBSTRATE_DIR,
  SUBSTRATE_TYPES,
  findSubstrateRoot,
  readSubstrate,
  listSubstrate,
  lintSubstrate,
  renderHitsYaml,
  type ListSubstrateOptions,
  type SubstrateContents,
  type SubstrateEntryRef,
  type LintSubstrateOptions,
  type MatchStrength,
  type OpenedFile,
  type QueryKind,
  type ReadSubstrateOptions,
  type StopDepth,
  type SubstrateHit,
  type SubstrateLintReport,
  type SubstrateReport,
  type TagNearMiss,
  type SubstrateType,
} from './substrate/index.js';

/**
 * Enrichment: score skill descriptions and pick the weakest for a rewrite brief (`planEnrichment`
 * writes nothing), then render and write the evidence folder.
 */
export {
  enrichSkills,
  planEnrichment,
  scoreDescription,
  renderArtifacts,
  writeEvidence,
  type DescriptionScore,
  type EnrichCandidate,
  type EnrichOptions,
  type EnrichPlan,
  type EnrichRefusal,
  type EnrichReport,
  type EnrichResult,
  type EnrichSkipped,
  type EvidenceTarget,
} from './enrich/index.js';

/**
 * Supply chain: pin a library in a lock file and verify it, and diff generations or one skill's
 * revisions.
 */
export {
  DEFAULT_LOCK_FILE,
  VERIFY_CODES,
  buildLock,
  checkLock,
  verifyLock,
  parseLock,
  readLockFile,
  diffGenerations,
  diffSkill,
} from './supply/index.js';
/**
 * The supply chain's option and report types: every type of the supply barrel, taken whole so the
 * list is written once, there (issue 33). Type-only: the barrel's internal functions (`lockOf`,
 * `compareToLock`, …) are no run-time export of the API.
 */
export type * from './supply/index.js';
