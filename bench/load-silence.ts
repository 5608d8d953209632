/**
 * The silenced-database case of the load test (issue 25, bench/load/silence.ts): PostgreSQL (a
 * throwaway cluster the bench starts and removes) behind a loopback proxy that stops forwarding
 * mid-load without closing a connection. Writes bench/results/load-silence.md: per phase (before,
 * silent, after) the calls answered, answered CATALOG_UNAVAILABLE, failed otherwise or hung, the
 * longest call and /healthz answer, and how long after the silence every server answered again.
 *
 *   npm run bench:load:silence [-- --skills 500 --servers 2 --clients 8 --silent-s 20]
 *
 * Without PostgreSQL's server binaries the case is skipped with a message.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { killAll } from './load/cluster.js';
import { startLoadCluster } from './load/postgres.js';
import { runSilence, type PhaseCounts } from './load/silence.js';
import { WORK, fmt, machineLine, writeResult } from './lib.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const n = i > 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
  return n;
}

const SKILLS = arg('--skills', 500);
const SERVERS = arg('--servers', 2);
const CLIENTS = arg('--clients', 8);
const SILENT_S = arg('--silent-s', 20);
/** The servers' statement timeout, ms: the bound of any wait is this + 1 s (DEADLINE_MARGIN_MS). */
const STATEMENT_TIMEOUT_MS = arg('--statement-timeout-ms', 3_000);
/** A call or health check with no answer after this long counts as hung, ms. */
const CALL_TIMEOUT_MS = 30_000;

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

function row(name: string, p: PhaseCounts): string {
  return `| ${name} | ${p.ok} | ${p.unavailable} | ${p.otherErrors} | ${p.hung} | ${fmt(p.maxCallMs, 0)} | ${p.health200} / ${p.health503} / ${p.healthHung} | ${fmt(p.maxHealthMs, 0)} |`;
}

async function main(): Promise<void> {
  const cluster = await startLoadCluster('silence');
  if (!cluster) {
    log('PostgreSQL server binaries not found: the silence case is skipped.');
    return;
  }
  const workDir = path.join(WORK, 'load-silence');
  rmSync(workDir, { recursive: true, force: true });
  mkdirSync(workDir, { recursive: true });
  try {
    const r = await runSilence({
      cluster,
      workDir,
      skills: SKILLS,
      servers: SERVERS,
      clients: CLIENTS,
      statementTimeoutMs: STATEMENT_TIMEOUT_MS,
      beforeMs: 5_000,
      silentMs: SILENT_S * 1_000,
      afterMs: 15_000,
      callTimeoutMs: CALL_TIMEOUT_MS,
      log,
    });
    const md = [
      '# Load test: a database that falls silent',
      '',
      machineLine(),
      '',
      `${r.servers} \`skilldex mcp --http\` servers on a PostgreSQL catalog of ${r.skills} generated skills, reached through a loopback proxy; ${r.clients} clients call skill_search in a loop and GET /healthz is polled on every server every 250 ms. After 5 s the proxy stops forwarding for ${fmt(r.silentMs / 1000, 0)} s without closing any connection (TCP keepalives see nothing wrong: the proxy's kernel keeps acknowledging), then forwards again for 15 s. The servers' statement timeout is ${r.statementTimeoutMs} ms (\`options=-cstatement_timeout=…\`), so no wait of theirs lasts longer than ${r.statementTimeoutMs + 1000} ms (src/catalog/store/pg-wait.ts); a call with no answer after ${CALL_TIMEOUT_MS / 1000} s counts as hung. A call counts in the phase it started in (calls in flight when the proxy fell silent end as CATALOG_UNAVAILABLE in \"before\"); after the silence a server answers CATALOG_UNAVAILABLE at once until its reconnect backoff (100 ms doubling to 5 s) has passed.`,
      '',
      '| phase | searches answered | CATALOG_UNAVAILABLE | other errors | hung | longest call (ms) | /healthz 200 / 503 / hung | longest /healthz (ms) |',
      '|---|---|---|---|---|---|---|---|',
      row('before', r.phases.before),
      row('silent', r.phases.silent),
      row('after', r.phases.after),
      '',
      `Every server answered a search again ${r.recoveredMs === null ? '— NOT within the 15 s after the silence' : `${fmt(r.recoveredMs / 1000, 1)} s after the proxy forwarded again`}.`,
      ...(r.errorSamples.length > 0
        ? ['', 'First errors:', '', ...r.errorSamples.map((e) => `- ${e}`)]
        : []),
      '',
      'Run: `npm run bench:load:silence` (options `--skills`, `--servers`, `--clients`, `--silent-s`, `--statement-timeout-ms`).',
    ].join('\n');
    writeResult('load-silence', md);
  } finally {
    killAll();
    cluster.stop();
  }
}

await main();
