/**
 * A skill.index line holding a NUL byte or bytes that are not UTF-8 is one malformed line (issue
 * #11): recorded with its number, skipped, and the node stays readable for the other lines.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { crawlCascade } from '../../src/cascade/index.js';
import { tmpDir } from '../support/cli.js';
import { real } from './support.js';

function writeIndex(root: string, bytes: Buffer): void {
  writeFileSync(path.join(root, 'skill.index'), bytes);
  const digest = createHash('sha256').update(bytes).digest('hex');
  writeFileSync(path.join(root, 'skill.index.sha256'), `${digest}  skill.index\n`);
}

describe('binary junk in a skill.index', () => {
  for (const [name, junk] of [
    ['a NUL byte', Buffer.from('junk\0line: x\n')],
    ['invalid UTF-8', Buffer.from([0xff, 0xfe, 0x3a, 0x20, 0x80, 0x0a])],
  ] as const) {
    it(`${name} is one malformed line; the other entries still match`, () => {
      const root = path.join(real(tmpDir('skilldex-binary-index-')), 'root');
      mkdirSync(path.join(root, 'pdf'), { recursive: true });
      writeFileSync(path.join(root, 'pdf', 'SKILL.md'), '---\nname: pdf\ndescription: pdf\n---\n');
      writeIndex(
        root,
        Buffer.concat([Buffer.from('# header\n'), junk, Buffer.from('pdf: pdf, tables\n')]),
      );
      const report = crawlCascade(root, 'tables');
      expect(report.outcome).toBe('hit');
      expect(report.hit?.key).toBe('pdf');
      const malformed = report.inconsistencies.filter((p) => p.code === 'MALFORMED_LINE');
      expect(malformed.map((p) => p.line)).toEqual([2]);
      expect(report.inconsistencies.some((p) => p.code === 'UNREADABLE_NODE')).toBe(false);
    });
  }
});
