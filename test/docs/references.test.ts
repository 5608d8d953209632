/**
 * Comments, docs and shipped output point only at files the repository has: the design notes,
 * style guide, performance notes and bench README that skilldex was designed from live outside
 * it, so a reference to them is one a reader cannot follow.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUTSIDE = /DESIGN\.md|STYLE\.md|PERF-NOTES|bench README/;
// This file names them on purpose.
const SELF = path.relative(ROOT, fileURLToPath(import.meta.url));

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(ROOT, dir)).sort()) {
    const rel = path.join(dir, name);
    if (name === 'node_modules' || name === '.work') continue;
    if (statSync(path.join(ROOT, rel)).isDirectory()) out.push(...files(rel));
    else out.push(rel);
  }
  return out;
}

describe('references to files outside the repository', () => {
  it('appear nowhere in src, test, docs, examples, bench, scripts or the README', () => {
    const all = ['src', 'test', 'docs', 'examples', 'bench', 'scripts']
      .flatMap(files)
      .concat(['README.md', 'package.json', 'eslint.config.js']);
    const hits = all
      .filter((f) => f !== SELF && /\.(ts|js|md|json|index|txt|yaml|yml)$/.test(f))
      .flatMap((f) =>
        readFileSync(path.join(ROOT, f), 'utf8')
          .split('\n')
          .flatMap((line, i) => (OUTSIDE.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(hits).toEqual([]);
  });
});
