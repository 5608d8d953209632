/**
 * The lint report as SARIF 2.1.0 (OASIS; schema at SARIF_SCHEMA), so GitHub code scanning and
 * editors show findings on the SKILL.md lines. One run, one rule per lint code (the code table's
 * order, so ruleIndex is stable), one result per finding located at the frontmatter line of its
 * field (line 1 when unknown), with a partial fingerprint from the finding's fingerprints so code
 * scanning tracks an alert across line moves. Pure: the caller writes the object.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LINT_CODES, type LintCode, type LintReport } from './codes.js';
import { assertKnownOptions, optionKeys } from '../errors.js';

/** The SARIF 2.1.0 JSON schema the output follows. */
export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

/** The parts of a SARIF log skilldex writes. */
export interface SarifLog {
  readonly $schema: string;
  readonly version: '2.1.0';
  readonly runs: readonly {
    readonly tool: {
      readonly driver: {
        readonly name: string;
        readonly version: string;
        readonly rules: readonly SarifRule[];
      };
    };
    readonly originalUriBaseIds: Readonly<Record<string, { readonly uri: string }>>;
    readonly results: readonly SarifResult[];
  }[];
}

/** A SARIF rule (reportingDescriptor) as skilldex writes them. */
export interface SarifRule {
  readonly id: string;
  readonly shortDescription: { readonly text: string };
  readonly defaultConfiguration: { readonly level: 'error' | 'warning' | 'note' };
}

/** A SARIF location: a file and a 1-based line. */
export interface SarifLocation {
  readonly physicalLocation: {
    readonly artifactLocation: { readonly uri: string; readonly uriBaseId?: string };
    readonly region: { readonly startLine: number };
  };
}

/** A SARIF result as skilldex writes them. */
export interface SarifResult {
  readonly ruleId: string;
  readonly ruleIndex: number;
  readonly level: 'error' | 'warning' | 'note';
  readonly message: { readonly text: string };
  readonly locations: readonly SarifLocation[];
  readonly relatedLocations?: readonly (SarifLocation & {
    readonly id: number;
    readonly message: { readonly text: string };
  })[];
  readonly partialFingerprints: Readonly<Record<string, string>>;
  readonly properties: Readonly<Record<string, unknown>>;
}

/** The partialFingerprints key skilldex writes (the SARIF spec asks for a versioned name). */
export const SARIF_FINGERPRINT_KEY = 'skilldexFindingHash/v1';

/** A short, stable hash of a finding's fingerprints for SARIF `partialFingerprints`. */
export function sarifFingerprint(fingerprints: readonly string[]): string {
  return createHash('sha256')
    .update([...fingerprints].sort().join('\n'))
    .digest('hex')
    .slice(0, 32);
}

/**
 * `report` as a SARIF log. Paths inside `baseDir` become URIs relative to it (base id `%SRCROOT%`,
 * as code scanning expects for files in the repository); others become `file://` URIs.
 */
export function renderSarif(
  report: LintReport,
  options: { baseDir: string; toolVersion: string },
): SarifLog {
  assertKnownOptions(options, RENDER_SARIF_OPTION_KEYS, 'renderSarif');
  const codes = Object.keys(LINT_CODES) as LintCode[];
  const rules: SarifRule[] = codes.map((code) => ({
    id: code,
    shortDescription: { text: LINT_CODES[code].rule },
    defaultConfiguration: { level: LINT_CODES[code].severity },
  }));
  const location = (file: string, line: number): SarifLocation =>
    sarifLocation(options.baseDir, file, line);
  const results: SarifResult[] = report.findings.map((f) => {
    const other =
      f.code === 'CONFUSABLE' ? (f.details['other_path'] as string | undefined) : undefined;
    return {
      ruleId: f.code,
      ruleIndex: codes.indexOf(f.code),
      level: f.severity,
      message: { text: f.fix !== undefined ? `${f.message}. Fix: ${f.fix}` : f.message },
      locations: [location(f.path, f.line ?? 1)],
      ...(other !== undefined
        ? {
            relatedLocations: [
              {
                id: 1,
                ...location(other, 1),
                message: { text: `the other skill: ${f.skill_ids[1] ?? ''}` },
              },
            ],
          }
        : {}),
      partialFingerprints: { [SARIF_FINGERPRINT_KEY]: sarifFingerprint(f.fingerprints) },
      properties: { skill_ids: f.skill_ids, ...(f.field !== undefined ? { field: f.field } : {}) },
    };
  });
  return sarifLog('skilldex lint', options, rules, results);
}

/**
 * `file` at `line` as a SARIF location: a URI relative to `baseDir` under base id `%SRCROOT%`
 * when the file is inside it (as code scanning expects for files in the repository), else a
 * `file://` URI.
 */
export function sarifLocation(baseDir: string, file: string, line: number): SarifLocation {
  const rel = path.relative(baseDir, file);
  const inside = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  return {
    physicalLocation: {
      artifactLocation: inside
        ? { uri: rel.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' }
        : { uri: pathToFileURL(file).href },
      region: { startLine: Math.max(1, line) },
    },
  };
}

/** A SARIF 2.1.0 log of one run of the tool `name`, `%SRCROOT%` being `options.baseDir`. */
export function sarifLog(
  name: string,
  options: { baseDir: string; toolVersion: string },
  rules: readonly SarifRule[],
  results: readonly SarifResult[],
): SarifLog {
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name, version: options.toolVersion, rules } },
        originalUriBaseIds: {
          '%SRCROOT%': {
            uri: pathToFileURL(
              options.baseDir.endsWith(path.sep) ? options.baseDir : options.baseDir + path.sep,
            ).href,
          },
        },
        results,
      },
    ],
  };
}

/** One result of `sarifLogOf`: a coded finding located in a file. */
export interface SarifFinding {
  readonly ruleId: string;
  readonly level: 'error' | 'warning' | 'note';
  readonly message: string;
  /** Absolute path of the file the result is on. */
  readonly path: string;
  /** 1-based line (default 1). */
  readonly line?: number;
  readonly properties?: Readonly<Record<string, unknown>>;
}

/**
 * A SARIF 2.1.0 log of coded findings from any skilldex report other than lint's (`verify`): one
 * run of tool `toolName`, one rule per entry of `rules` (their order fixes ruleIndex), one result
 * per finding, located as `renderSarif` locates lint findings. Pure.
 */
export function sarifLogOf(options: {
  readonly toolName: string;
  readonly toolVersion: string;
  readonly baseDir: string;
  readonly rules: readonly {
    readonly id: string;
    readonly text: string;
    readonly level: 'error' | 'warning' | 'note';
  }[];
  readonly findings: readonly SarifFinding[];
}): SarifLog {
  const ids = options.rules.map((r) => r.id);
  return sarifLog(
    options.toolName,
    options,
    options.rules.map((r) => ({
      id: r.id,
      shortDescription: { text: r.text },
      defaultConfiguration: { level: r.level },
    })),
    options.findings.map((f) => ({
      ruleId: f.ruleId,
      ruleIndex: ids.indexOf(f.ruleId),
      level: f.level,
      message: { text: f.message },
      locations: [sarifLocation(options.baseDir, f.path, f.line ?? 1)],
      // Code scanning matches a result across runs by this hash: the rule, the file and the message.
      partialFingerprints: {
        [SARIF_FINGERPRINT_KEY]: sarifFingerprint([`${f.ruleId}\t${f.path}\t${f.message}`]),
      },
      properties: f.properties ?? {},
    })),
  );
}

/** The keys `renderSarif` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const RENDER_SARIF_OPTION_KEYS = optionKeys<NonNullable<Parameters<typeof renderSarif>[1]>>()(
  'baseDir',
  'toolVersion',
);
