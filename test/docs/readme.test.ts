/**
 * The README is a five-minute guide (issue 27) and the docs it sends readers to hold the rest: the
 * README stays under 250 lines; its quick start is the two commands a fresh clone runs (`npm ci &&
 * npm run quickstart`, `npm test`), the `quickstart` script exists and indexes the bundled examples,
 * and `.ci/run` runs both; every fenced block of the README and docs/*.md is closed; every relative
 * link of them reaches a file of the repository (and a heading, when it names one); every
 * `skilldex …` command shown in a shell block of them names a command the CLI has, with options
 * that command takes (read from its own `--help`). Never runs the commands: docs/ci.md's test does
 * that for its page.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runCli } from '../support/cli.js';

const README = readFileSync(path.join(REPO, 'README.md'), 'utf8');
const DOCS = readdirSync(path.join(REPO, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => `docs/${f}`);
const PAGES = ['README.md', ...DOCS];

function read(rel: string): string {
  return readFileSync(path.join(REPO, rel), 'utf8');
}

/** The fenced blocks of `markdown` in language `lang`. */
function blocks(markdown: string, lang: string): string[] {
  return [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)]
    .filter((m) => m[1] === lang)
    .map((m) => m[2]!);
}

/** Markdown outside fenced blocks and code spans (links in code are not links). */
function prose(markdown: string): string {
  return markdown
    .replace(/^```[\s\S]*?^```$/gm, '')
    .replace(/``.*?``/g, '')
    .replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchors(markdown: string): Set<string> {
  const outsideFences = markdown.replace(/^```[\s\S]*?^```$/gm, '');
  return new Set([...outsideFences.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
}

/**
 * The `skilldex` invocations of one shell line: the words after `skilldex` (or `…bin/skilldex.js`)
 * in each part of a pipeline or `&&` chain, with quoted strings, comments and `[ ]` dropped.
 */
function invocations(line: string): string[][] {
  const bare = line
    .replace(/(^|\s)#(\s.*)?$/, '')
    .replace(/"[^"]*"|'[^']*'/g, 'STR')
    .replace(/[[\]]/g, ' ');
  return bare
    .split(/&&|\|\||\||;|\s--\s/)
    .map((part) => part.trim().split(/\s+/))
    .flatMap((words) => {
      const at = words.findIndex((w) => w === 'skilldex' || w.endsWith('bin/skilldex.js'));
      return at >= 0 && at + 1 < words.length ? [words.slice(at + 1)] : [];
    });
}

const helpCache = new Map<string, string>();
async function help(cmd: readonly string[]): Promise<string> {
  const key = cmd.join(' ');
  let text = helpCache.get(key);
  if (text === undefined) {
    const r = await runCli([...cmd, '--help'], { env: { HOME: '/nonexistent-home' } });
    expect([key, r.code]).toEqual([key, 0]);
    text = r.stdout;
    helpCache.set(key, text);
  }
  return text;
}

describe('README.md', () => {
  it('reads in five minutes: under 250 lines', () => {
    expect(README.split('\n').length).toBeLessThan(250);
  });

  it('shows the quick start a fresh clone runs, and CI runs it too', () => {
    // The quick start is its first two code blocks: the user's set-up line, then (apart, with what
    // it needs said between them) the contributors' test command.
    const section = README.slice(README.indexOf('## Quick start'));
    const [tryIt, testIt] = blocks(section, 'sh');
    const commandsOf = (block: string | undefined): string[] =>
      (block ?? '')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => l.replace(/\s+#.*$/, '').trim());
    expect(commandsOf(tryIt)).toEqual(['npm ci && npm run quickstart']);
    expect(commandsOf(testIt)).toEqual(['npm test']);
    const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(pkg.scripts['quickstart']).toMatch(/^npm run build && /);
    expect(pkg.scripts['quickstart']).toContain(
      'index --catalog .skilldex/catalog.sqlite --scope examples/skills',
    );
    expect(pkg.scripts['quickstart']).toContain('search "extract tables from a pdf"');
    expect(pkg.scripts['test']).toBeDefined();
    const ci = read('.ci/run');
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).toMatch(/^npm test\b/m);
    expect(ci).toMatch(/^npm run quickstart\b/m);
  });

  it('shows the explorer screenshot and says what the tests need', () => {
    expect(README).toContain('](docs/explorer.png)');
    expect(README).toMatch(/PostgreSQL/);
    expect(README).toMatch(/Chromium/);
    expect(README).toContain('init --undo');
  });
});

describe('code blocks of the README and docs/', () => {
  it('are all closed (an open fence swallows the rest of the page)', () => {
    const open = PAGES.filter((page) => (read(page).match(/^```/gm) ?? []).length % 2 !== 0);
    expect(open).toEqual([]);
  });
});

describe('commands of the README and docs/ run skilldex, never npx skilldex', () => {
  // skilldex is not on the npm registry: `npx skilldex` fetches someone else's package (issue 35).
  it('no fenced block runs npx skilldex', () => {
    for (const page of PAGES) {
      for (const m of read(page).matchAll(/^```\w*\n([\s\S]*?)^```$/gm))
        expect(m[1]!, `${page} runs npx skilldex`).not.toMatch(/\bnpx\s+skilldex\b/);
    }
  });
});

describe('links of the README and docs/', () => {
  it('reach files of the repository, and headings where they name one', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      const text = read(page);
      for (const m of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/i.test(target)) continue;
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const resolved = file === '' ? page : path.join(path.dirname(page), file);
        if (!existsSync(path.join(REPO, resolved))) {
          broken.push(`${page}: ${target} (no ${resolved})`);
          continue;
        }
        if (
          anchor !== undefined &&
          resolved.endsWith('.md') &&
          !anchors(read(resolved)).has(anchor)
        )
          broken.push(`${page}: ${target} (no heading #${anchor} in ${resolved})`);
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('commands shown in the README and docs/', () => {
  it('name commands the CLI has, with options those commands take', async () => {
    const global = await help([]);
    const problems: string[] = [];
    let checked = 0;
    for (const page of PAGES) {
      for (const block of blocks(read(page), 'sh')) {
        for (const line of block.split('\n')) {
          for (const words of invocations(line)) {
            const cmd = [words[0]!];
            if (cmd[0]!.startsWith('-')) continue; // `skilldex --version`: a global option
            if (!new RegExp(`^  ${cmd[0]}\\b`, 'm').test(global)) {
              problems.push(`${page}: no command "${cmd[0]}" in: ${line.trim()}`);
              continue;
            }
            let text = await help(cmd);
            const sub = words[1];
            if (/^Commands:/m.test(text) && sub !== undefined && !sub.startsWith('-')) {
              cmd.push(sub);
              text = await help(cmd);
            }
            for (const w of words.slice(cmd.length)) {
              const flag = /^(--[a-z][a-z0-9-]*)/.exec(w)?.[1];
              if (flag === undefined) continue;
              if (!text.includes(flag) && !global.includes(flag))
                problems.push(`${page}: ${cmd.join(' ')} has no ${flag} in: ${line.trim()}`);
            }
            checked++;
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  }, 120_000);
});
