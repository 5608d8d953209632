/**
 * Template-line keys (text/template-lines.ts): two lines that differ only by their skill's own name,
 * digits, case, width and white space share a key (body-line.test.ts holds the one-pass scan equal).
 */
import { describe, expect, it } from 'vitest';
import { lineKey, nameWords } from '../../src/text/template-lines.js';

describe('lineKey', () => {
  it('keys lines alike that differ only by the skill name and digits', () => {
    const a = lineKey('Use PDF-Tools 3 times', nameWords('pdf-tools'));
    expect(a).toBeDefined();
    expect(lineKey('use  xlsx-kit 42 times ', nameWords('xlsx kit'))).toBe(a);
    expect(lineKey('Ｕｓｅ ｘｌｓｘ-kit 7 times', nameWords('xlsx kit'))).toBe(a);
    expect(lineKey(' ab ', new Set())).toBeUndefined();
  });
});
