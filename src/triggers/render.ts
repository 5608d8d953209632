/**
 * The `eval --triggers` report as files CI systems read (pure; issue #24):
 *
 * - SARIF 2.1.0 (src/lint/sarif.ts writes the log): one result per failing skill — a miss, a false
 *   trigger or a failed gate — located on the `description:` line of its SKILL.md, with the
 *   confusions and the words that carried them in the message; level `error` when a gate failed
 *   for it, else `warning`.
 * - JUnit XML, as Jenkins, GitLab and GitHub test reporters read it (the Jenkins xunit-plugin's
 *   junit-10.xsd: testsuites › testsuite › testcase › failure): one test suite per skill, one test
 *   case per request, a failure naming the skill that took it. Every string is escaped as XML
 *   text or attribute, invisible and control characters made visible first (src/text).
 */
import {
  SARIF_FINGERPRINT_KEY,
  sarifFingerprint,
  sarifLocation,
  sarifLog,
  type SarifLog,
  type SarifResult,
  type SarifRule,
} from '../lint/index.js';
import { escapeInvisible } from '../text/index.js';
import type { TriggerReport } from './eval.js';
import type { CaseOutcome } from './score.js';
import { assertKnownOptions, optionKeys } from '../errors.js';

/** The SARIF rule of a failing skill. */
export const TRIGGER_RULE: SarifRule = {
  id: 'TRIGGER_EVAL',
  shortDescription: {
    text: "the skill's description loses its own trigger requests to other skills, or draws requests meant for others",
  },
  defaultConfiguration: { level: 'warning' },
};

/** `report` as SARIF 2.1.0: one result per failing skill, on its description line. */
export function renderTriggerSarif(
  report: TriggerReport,
  options: { baseDir: string; toolVersion: string },
): SarifLog {
  assertKnownOptions(options, RENDER_TRIGGER_SARIF_OPTION_KEYS, 'renderTriggerSarif');
  const gated = new Set(report.gates.failures.map((f) => f.scope));
  const results: SarifResult[] = [];
  for (const s of report.per_skill) {
    const own = report.cases.filter((c) => c.skill_id === s.skill_id);
    const missed = own.filter((c) => c.should_trigger && !c.passed).length;
    if (missed === 0 && s.false_triggers === 0 && !gated.has(s.skill_id)) continue;
    const parts = [
      `${s.skill_id}: ${s.positives - missed} of ${s.positives} requests routed to it${report.recall_at === 1 ? ' first' : ` within the top ${report.recall_at}`}`,
      ...s.confusions.map(
        (c) =>
          `${c.count} went to ${c.to}${c.words.length > 0 ? ` on: ${c.words.join(', ')}` : ''}`,
      ),
      ...(s.false_triggers > 0
        ? [`${s.false_triggers} of ${s.negatives} requests it should not take triggered it`]
        : []),
      ...report.gates.failures.filter((f) => f.scope === s.skill_id).map((f) => f.message),
    ];
    results.push({
      ruleId: TRIGGER_RULE.id,
      ruleIndex: 0,
      level: gated.has(s.skill_id) ? 'error' : 'warning',
      message: { text: escapeInvisible(parts.join('; ')) },
      locations: [sarifLocation(options.baseDir, s.path, s.line ?? 1)],
      partialFingerprints: {
        [SARIF_FINGERPRINT_KEY]: sarifFingerprint([`TRIGGER_EVAL|${s.skill_id}`]),
      },
      properties: {
        skill_id: s.skill_id,
        recall: s.recall,
        false_rate: s.false_rate,
        confusions: s.confusions.map((c) => ({ to: c.to, count: c.count, words: c.words })),
      },
    });
  }
  const log = sarifLog('skilldex eval --triggers', options, [TRIGGER_RULE], results);
  // issue 34 item 3: the split is stated in every report format (SARIF: the run's property bag).
  return { ...log, runs: log.runs.map((r) => ({ ...r, properties: { split: report.split } })) };
}

/** `report` as JUnit XML: a suite per skill, a test case per request. */
export function renderTriggerJunit(report: TriggerReport): string {
  const bySkill = new Map<string, CaseOutcome[]>();
  for (const c of report.cases) bySkill.set(c.skill_id, [...(bySkill.get(c.skill_id) ?? []), c]);
  const failures = report.cases.filter((c) => !c.passed).length;
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="skilldex eval --triggers" tests="${report.cases.length}" failures="${failures}" errors="0" time="0">`,
  ];
  for (const [skill, cases] of [...bySkill.entries()].sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  )) {
    const failed = cases.filter((c) => !c.passed).length;
    lines.push(
      `  <testsuite name="${attr(skill)}" tests="${cases.length}" failures="${failed}" errors="0" skipped="0" time="0">`,
      ...splitProperties(report),
    );
    for (const c of cases) lines.push(...testcase(c, report.recall_at));
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return lines.join('\n') + '\n';
}

// issue 34 item 3: the split, as properties of each suite (junit-10.xsd: properties come first).
function splitProperties(report: TriggerReport): string[] {
  const x = report.split;
  return [
    '    <properties>',
    `      <property name="split" value="${attr(x.method)}"/>`,
    `      <property name="split.train_not_graded" value="${x.train}"/>`,
    `      <property name="split.graded" value="${x.validation}"/>`,
    `      <property name="split.learned_not_graded" value="${x.learned}"/>`,
    `      <property name="split.reason" value="${attr(x.reason)}"/>`,
    '    </properties>',
  ];
}

function testcase(c: CaseOutcome, recallAt: number): string[] {
  const name = `${c.should_trigger ? 'should trigger' : 'should not trigger'}: ${c.query}`;
  const open = `    <testcase classname="${attr(c.skill_id)}" name="${attr(name)}" file="${attr(c.file)}"${c.line !== undefined ? ` line="${c.line}"` : ''} time="0"`;
  if (c.passed) return [`${open}/>`];
  const why = c.should_trigger
    ? c.abstained
      ? 'the router abstained (no candidate)'
      : `routed to ${c.first ?? 'nothing'}${c.rank !== null ? `; ${c.skill_id} at rank ${c.rank}` : `; ${c.skill_id} not in the top 100`} (needed ${recallAt === 1 ? 'first' : `top ${recallAt}`})`
    : `${c.skill_id} ${c.first === c.skill_id ? 'ranked first' : 'cleared the confidence floor'}`;
  // Each line made safe on its own, so the line breaks between them stay line breaks.
  const detail = [
    `case ${c.id}`,
    `top: ${c.top.map((t) => `${t.skill_id} (${t.score.toFixed(3)})`).join(', ') || 'none'}`,
    ...(c.words.length > 0 ? [`carried by: ${c.words.join(', ')}`] : []),
  ]
    .map(clean)
    .join('\n');
  return [
    `${open}>`,
    `      <failure message="${attr(why)}" type="${c.should_trigger ? 'missed' : 'false-trigger'}">${xml(detail)}</failure>`,
    '    </testcase>',
  ];
}

// XML 1.0 allows tab, line feed and carriage return among the C0 controls and nothing else; skill
// text is made visible first (escapeInvisible), and what remains disallowed becomes U+FFFD.
function clean(s: string): string {
  return escapeInvisible(s).replace(
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '\uFFFD',
  );
}

function xml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(s: string): string {
  return xml(clean(s))
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}

/** The keys `renderTriggerSarif` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const RENDER_TRIGGER_SARIF_OPTION_KEYS = optionKeys<
  NonNullable<Parameters<typeof renderTriggerSarif>[1]>
>()('baseDir', 'toolVersion');
