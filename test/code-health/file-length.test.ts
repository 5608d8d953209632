/**
 * No file in src/cli/ is longer than MAX_CLI_FILE_LINES (issue 33 item 5: "no file in src/cli/ over
 * 400 lines"): a command that grows past it is split by what its parts do (as cli/init/ and
 * cli/doctor/ are), not left to grow. A failing case names each file with its length.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = path.resolve(__dirname, '../../src/cli');

/** The longest a file in src/cli/ may be, in lines. */
const MAX_CLI_FILE_LINES = 400;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

describe('file length in src/cli/', () => {
  it(`has no file over ${MAX_CLI_FILE_LINES} lines`, () => {
    const files = tsFiles(CLI);
    expect(files.length).toBeGreaterThan(50);
    const long = files
      .map((f) => ({
        file: path.relative(CLI, f),
        lines: readFileSync(f, 'utf8').replace(/\n$/, '').split('\n').length,
      }))
      .filter((f) => f.lines > MAX_CLI_FILE_LINES);
    expect(long).toEqual([]);
  });
});
