/**
 * One JSON writer for every JSON output (issue 25): `--json` of every command, MCP messages on
 * stdio and over HTTP, the explorer's API. C0 and C1 controls, bidi controls, TAG characters and
 * the other characters the one sanitiser escapes appear in the bytes only as `\uXXXX` escapes
 * (astral ones as surrogate pairs): still valid JSON, and the same data once parsed. Text another
 * client wrote (a learned request quoted in `usage.matched`) passes the one sanitiser before it
 * reaches any client.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonText } from '../../src/text/index.js';
import { runCli, skillMd, tmpTree } from '../support/cli.js';
import { BIN } from '../mcp/support.js';

// What must never stand raw in JSON bytes (line feed, tab and space aside: JSON layout).
const RAW_UNSAFE =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069\u{E0000}-\u{E007F}]/u;

const HOSTILE =
  'Merge PDF files \u202Eeulb\u202C, tags \u{E0041}\u{E0042}, C1 \u0085 and DEL \u007F, ESC \u001b[31m red';

describe('jsonText', () => {
  it('escapes every unsafe character and parses back to the same value', () => {
    const value = { s: HOSTILE, nested: [HOSTILE, { k: '\u2028\u2029\uFEFF' }], n: 1 };
    for (const space of [undefined, 2]) {
      const text = jsonText(value, space);
      expect(RAW_UNSAFE.test(text), text).toBe(false);
      expect(JSON.parse(text)).toEqual(value);
    }
    expect(jsonText('\u{E0001}')).toBe('"\\udb40\\udc01"');
    expect(jsonText('\u202E')).toBe('"\\u202e"');
    expect(jsonText(undefined)).toBe('null');
  });
});

function hostileLibrary(): { dir: string; skills: string; catalog: string } {
  const dir = tmpTree({
    'skills/pdf-merge/SKILL.md': skillMd('pdf-merge', HOSTILE) + `\n${HOSTILE}\n`,
    'skills/csv-clean/SKILL.md': skillMd('csv-clean', 'Clean CSV files.'),
  });
  return { dir, skills: path.join(dir, 'skills'), catalog: path.join(dir, 'catalog.sqlite') };
}

describe('every --json output', () => {
  it('scan, index, search, fetch and status write no raw control, bidi or TAG character', async () => {
    const lib = hostileLibrary();
    const env = { HOME: lib.dir };
    const scan = await runCli(['scan', '--scope', lib.skills, '--json'], { cwd: lib.dir, env });
    expect(scan.code, scan.stderr).toBe(0);
    expect(RAW_UNSAFE.test(scan.stdout)).toBe(false);
    expect(scan.stdout).toContain('\\u202e');
    const idx = await runCli(['index', '--catalog', lib.catalog, '--scope', lib.skills, '--json'], {
      cwd: lib.dir,
      env,
    });
    expect(idx.code, idx.stderr).toBe(0);
    const search = await runCli(['search', 'merge pdf', '--catalog', lib.catalog, '--json'], {
      cwd: lib.dir,
      env,
    });
    expect(RAW_UNSAFE.test(search.stdout)).toBe(false);
    const found = JSON.parse(search.stdout) as {
      catalog_generation: string;
      candidates: { skill_id: string; description: string; revision_id: string }[];
    };
    const hit = found.candidates.find((c) => c.skill_id === 'pdf-merge')!;
    // Exact data once parsed.
    expect(hit.description).toBe(HOSTILE);
    const fetched = await runCli(
      [
        'fetch',
        'pdf-merge',
        '--revision',
        hit.revision_id,
        '--generation',
        found.catalog_generation,
        '--catalog',
        lib.catalog,
        '--json',
      ],
      { cwd: lib.dir, env },
    );
    expect(fetched.code, fetched.stderr).toBe(0);
    expect(RAW_UNSAFE.test(fetched.stdout)).toBe(false);
    expect((JSON.parse(fetched.stdout) as { body: string }).body).toContain(HOSTILE);
    const queries = path.join(lib.dir, 'queries.jsonl');
    writeFileSync(queries, JSON.stringify({ id: 'q1', query: 'merge pdf' }) + '\n');
    const batch = await runCli(['search', '--batch', queries, '--catalog', lib.catalog], {
      cwd: lib.dir,
      env,
    });
    expect(batch.code, batch.stderr).toBe(0);
    expect(batch.stdout).toContain('\\u202e');
    expect(RAW_UNSAFE.test(batch.stdout)).toBe(false);
  });
});

describe('MCP', () => {
  it('skill_search on stdio: no raw unsafe character on the wire, and usage.matched sanitised', async () => {
    const lib = hostileLibrary();
    const env = { HOME: lib.dir };
    expect(
      (
        await runCli(['index', '--catalog', lib.catalog, '--scope', lib.skills], {
          cwd: lib.dir,
          env,
        })
      ).code,
    ).toBe(0);
    // Another client's request, learned: it reaches this client only through the sanitiser.
    const learned = `merge \u001b]0;pwned\u0007 pdf \u202Egnp.exe\u202C \u{E0049}`;
    const file = path.join(lib.dir, 'learn.jsonl');
    writeFileSync(file, JSON.stringify({ query: learned, skill_id: 'pdf-merge' }) + '\n');
    expect(
      (await runCli(['learn', file, '--catalog', lib.catalog], { cwd: lib.dir, env })).code,
    ).toBe(0);
    const out = await stdioExchange(
      ['--catalog', lib.catalog, '--no-telemetry'],
      [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 't', version: '1' },
          },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'skill_search', arguments: { query: 'merge pdf' } },
        },
      ],
    );
    expect(RAW_UNSAFE.test(out), out).toBe(false);
    const answer = out
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { id?: number; result?: { structuredContent?: unknown } })
      .find((m) => m.id === 2)!;
    const candidates = (
      answer.result!.structuredContent as {
        candidates: {
          skill_id: string;
          description: string;
          explanation: { usage?: { matched: string[] } };
        }[];
      }
    ).candidates;
    const hit = candidates.find((c) => c.skill_id === 'pdf-merge')!;
    expect(hit.description).toBe(HOSTILE);
    const matched = hit.explanation.usage?.matched ?? [];
    expect(matched.length).toBeGreaterThan(0);
    for (const m of matched) expect(RAW_UNSAFE.test(m), m).toBe(false);
    expect(matched[0]).toContain('\\u001b');
  });
});

/** Writes `messages` to `skilldex mcp` on stdin, closes it, and returns stdout as it came. */
function stdioExchange(args: readonly string[], messages: readonly object[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'mcp', ...args], {
      env: { PATH: process.env['PATH'] ?? '', HOME: '/nonexistent' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      // The search answer is in: end the session.
      if (/"id":2[,}]/.test(out)) child.stdin.end();
    });
    child.on('error', reject);
    child.on('exit', () => resolve(out));
    for (const m of messages) child.stdin.write(JSON.stringify(m) + '\n');
    setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
  });
}

describe('paths from flags and config', () => {
  it('a catalog path holding ESC and OSC sequences is printed escaped by index, status and learn', async () => {
    const lib = hostileLibrary();
    const env = { HOME: lib.dir };
    const catalog = path.join(lib.dir, '\u001b]0;pwned\u0007\u001b[2Jcat\u202E.sqlite');
    const examples = path.join(lib.dir, 'ex.jsonl');
    writeFileSync(examples, JSON.stringify({ query: 'merge pdfs', skill_id: 'pdf-merge' }) + '\n');
    for (const argv of [
      ['index', '--catalog', catalog, '--scope', lib.skills],
      ['status', '--catalog', catalog],
      ['learn', examples, '--catalog', catalog],
      ['generations', '--catalog', catalog],
    ]) {
      const r = await runCli(argv, { cwd: lib.dir, env });
      expect(r.code, `${argv[0]}: ${r.stderr}`).toBeLessThan(2);
      expect(RAW_UNSAFE.test(r.stdout + r.stderr), `${argv[0]}: ${r.stdout}`).toBe(false);
    }
  });
});
