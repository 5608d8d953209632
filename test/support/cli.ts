/**
 * Test support: run the CLI in process (`runCli`), make temporary trees (`tmpTree`), and run the
 * built binary as a child process (`runBin`). No module mocking: root, env and cwd are passed in.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run } from '../../src/cli/program.js';

/** The repository root. */
export const REPO = path.resolve(__dirname, '../..');

/** Output and exit code of one in-process CLI run. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `skilldex argv` in process with the given cwd and environment. */
export async function runCli(
  argv: string[],
  opts: {
    cwd?: string;
    env?: Record<string, string | undefined>;
    /** Pretend stderr is a terminal, with this clock for progress lines. */
    tty?: { clock: () => number };
  } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s;
    },
    env: opts.env ?? { HOME: '/nonexistent-home' },
    cwd: opts.cwd ?? REPO,
    stderrIsTTY: opts.tty !== undefined,
    ...(opts.tty !== undefined ? { clock: opts.tty.clock } : {}),
  });
  return { code, stdout, stderr };
}

/** Runs the built `bin/skilldex.js` as a child process (needs `npm run build` first). */
export function runBin(
  argv: string[],
  opts: {
    cwd?: string;
    env?: Record<string, string | undefined>;
    input?: string;
    timeoutMs?: number;
  } = {},
): CliResult {
  const r = spawnSync(process.execPath, [path.join(REPO, 'bin', 'skilldex.js'), ...argv], {
    cwd: opts.cwd ?? REPO,
    env: { PATH: process.env['PATH'], ...(opts.env ?? {}) } as NodeJS.ProcessEnv,
    input: opts.input ?? '',
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 30_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Creates a fresh temporary folder and returns its path. */
export function tmpDir(prefix = 'skilldex-test-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** Writes `files` (relative path → content) below a new temporary folder and returns its path. */
export function tmpTree(files: Record<string, string | Uint8Array>, prefix?: string): string {
  const root = tmpDir(prefix);
  writeTree(root, files);
  return root;
}

/** Writes `files` (relative path → content) below `root`. */
export function writeTree(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(root, rel);
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
}

/** A minimal valid SKILL.md text. */
export function skillMd(name: string, description: string, extra = ''): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n${extra}---\n\n# ${name}\n\nBody of ${name}.\n`;
}

/**
 * The small library the prompt hook's tests route over (`lib/<name>/SKILL.md`, for writeTree): a
 * PDF, a Kubernetes and a Word skill, each clearly its own topic.
 */
export const HOOK_TEST_LIBRARY: Readonly<Record<string, string>> = {
  'lib/pdf-merge/SKILL.md': skillMd(
    'pdf-merge',
    'Merge several PDF files into one PDF document, keeping page order and bookmarks.',
  ),
  'lib/k8s-deploy/SKILL.md': skillMd(
    'k8s-deploy',
    'Deploy an application to a Kubernetes cluster with manifests, rollouts and health checks.',
  ),
  'lib/docx-report/SKILL.md': skillMd(
    'docx-report',
    'Write a Word document report (docx) with headings, tables and a table of contents.',
  ),
};
