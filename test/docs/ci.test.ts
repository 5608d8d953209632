/**
 * docs/ci.md is followed once (issue #24): every `skilldex …` command of its GitHub Actions
 * workflow, its GitLab job and its shell blocks runs, in the page's order, in a repository whose
 * `skills/` folder is a copy of examples/skills (with its trigger evaluations). Each must run (exit
 * 0 or 1, never refused), the workflow's gates and the baseline runs must pass on that library,
 * every SARIF file it writes must validate against SARIF 2.1.0, the JUnit and JSON files must parse,
 * and the workflow must upload the files its commands write under distinct categories.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO, runCli, tmpDir } from '../support/cli.js';
import { sarifErrors } from '../support/sarif.js';

const DOC = readFileSync(path.join(REPO, 'docs', 'ci.md'), 'utf8');

interface Block {
  readonly lang: string;
  readonly text: string;
}

function blocks(markdown: string): Block[] {
  return [...markdown.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1]!,
    text: m[2]!,
  }));
}

// Every skilldex command of the page, in order: workflow and job `run`/`script` lines, shell lines.
function commands(bs: readonly Block[]): string[] {
  const out: string[] = [];
  for (const b of bs) {
    const lines =
      b.lang === 'yaml' ? yamlCommands(parse(b.text)) : b.lang === 'sh' ? b.text.split('\n') : [];
    out.push(...lines.map((l) => l.trim()).filter((l) => l.startsWith('skilldex ')));
  }
  return out;
}

// The `run:` lines of workflow steps and the `script:` lines of CI jobs, in document order.
function yamlCommands(doc: unknown): string[] {
  const out: string[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (k === 'run' && typeof x === 'string') out.push(...x.split('\n'));
        else if (k === 'script' && Array.isArray(x))
          out.push(...x.filter((l): l is string => typeof l === 'string'));
        else visit(x);
      }
  };
  visit(doc);
  return out;
}

describe('docs/ci.md', () => {
  it('runs every documented command on a copy of examples/skills', async () => {
    const repo = tmpDir('skilldex-ci-doc-');
    cpSync(path.join(REPO, 'examples', 'skills'), path.join(repo, 'skills'), { recursive: true });
    const cmds = commands(blocks(DOC));
    expect(cmds.length).toBeGreaterThanOrEqual(8);
    const written = new Map<string, string>();
    for (const cmd of cmds) {
      const [args, out] = cmd.split(/\s+>\s+/) as [string, string | undefined];
      const argv = args.split(/\s+/).slice(1);
      const r = await runCli(argv, { env: { HOME: path.join(repo, 'no-home') }, cwd: repo });
      expect([cmd, r.stderr.includes('error ') ? r.stderr : '']).toEqual([cmd, '']);
      expect([cmd, [0, 1]]).toEqual([cmd, expect.arrayContaining([r.code])]);
      // The trigger gates of the workflow and both baseline runs pass on this library.
      if (cmd.includes('eval --triggers') && /min-skill-recall|baseline/.test(cmd))
        expect([cmd, r.code]).toEqual([cmd, 0]);
      if (out !== undefined) {
        writeFileSync(path.join(repo, out), r.stdout);
        written.set(out, r.stdout);
      }
    }
    for (const [file, text] of written) {
      if (file.endsWith('.sarif'))
        expect([file, sarifErrors(JSON.parse(text))]).toEqual([file, []]);
      else if (file.endsWith('.json')) expect(() => JSON.parse(text)).not.toThrow();
      else if (file.endsWith('.xml')) expect(text.startsWith('<?xml version="1.0"')).toBe(true);
    }
    // The workflow uploads what its steps write, each file under its own category.
    const workflow = parse(blocks(DOC).find((b) => b.text.includes('upload-sarif'))!.text) as {
      jobs: Record<
        string,
        { steps: { uses?: string; with?: { sarif_file?: string; category?: string } }[] }
      >;
    };
    const uploads = Object.values(workflow.jobs)
      .flatMap((j) => j.steps)
      .filter((s) => s.uses?.startsWith('github/codeql-action/upload-sarif'));
    expect(uploads.map((u) => u.with?.sarif_file).sort()).toEqual(['lint.sarif', 'triggers.sarif']);
    expect(new Set(uploads.map((u) => u.with?.category)).size).toBe(2);
  }, 300_000);
});
