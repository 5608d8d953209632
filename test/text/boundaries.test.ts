/**
 * Negative boundaries (text/boundaries.ts, docs/ranking.md §10): a description's "do not use for"
 * clauses split from its positive text, on the shapes real descriptions have (the trigger dev set's
 * savepoint, repo-proof, crossforge, starman, harmonyos-design, self-evolution); a request's excluded
 * spans split from what it asks for, with the narrow cues only.
 */
import { describe, expect, it } from 'vitest';
import { splitBoundaries, splitQueryNegation } from '../../src/text/index.js';

describe('splitBoundaries', () => {
  it.each([
    [
      'Recoverable coding-session checkpoint. Not for SQL SAVEPOINT, ordinary summaries, or app features named savepoint.',
      'Recoverable coding-session checkpoint. ',
      'Not for SQL SAVEPOINT, ordinary summaries, or app features named savepoint.',
    ],
    [
      'Prove a README works from a fresh clone. Do not use for ordinary README writing or generic code review.',
      'Prove a README works from a fresh clone. ',
      'Do not use for ordinary README writing or generic code review.',
    ],
    [
      'Mission-control precision mode. Do NOT trigger for general requests to "be precise". Use when the user says starman.',
      'Mission-control precision mode.  Use when the user says starman.',
      'Do NOT trigger for general requests to "be precise".',
    ],
    [
      'Retro after task completion. Do not trigger for deep review of written artifacts (use deep-review-loop) or session wrap-up (use mem-wrap-up).',
      'Retro after task completion. ',
      'Do not trigger for deep review of written artifacts (use deep-review-loop) or session wrap-up (use mem-wrap-up).',
    ],
    [
      '审视 HarmonyOS 与 ArkUI 产品界面。不要用于签名、构建、网络、权限等纯工程问题，也不要用于通用视频剪辑。',
      '审视 HarmonyOS 与 ArkUI 产品界面。',
      '不要用于签名、构建、网络、权限等纯工程问题，也不要用于通用视频剪辑。',
    ],
  ])('%s', (text, positive, boundary) => {
    expect(splitBoundaries(text)).toEqual({ positive, boundary });
  });

  it('leaves a description without a cue whole, and ignores "not" in ordinary prose', () => {
    const text = 'Formats code that is not yet formatted. Use when files do not match the style.';
    expect(splitBoundaries(text)).toEqual({ positive: text, boundary: '' });
  });

  it('splits every clause of a description that has several', () => {
    const r = splitBoundaries(
      'Plans work. Not for estimates. Breaks tasks down. Never use for Jira admin.',
    );
    expect(r.boundary).toBe('Not for estimates.\nNever use for Jira admin.');
    expect(r.positive).toBe('Plans work.  Breaks tasks down. ');
  });
});

describe('splitQueryNegation', () => {
  it.each([
    ['写一个普通企业官网，不需要视频或 3D', '写一个普通企业官网，', '视频或 3D'],
    ['build a REST API, not about MCP but fast', 'build a REST API, but fast', 'MCP'],
    [
      'summarise this article instead of reviewing the product',
      'summarise this article',
      'reviewing the product',
    ],
    ["write tests, don't touch the database schema", 'write tests,', 'the database schema'],
  ])('%s', (query, wanted, excluded) => {
    expect(splitQueryNegation(query)).toEqual({ wanted, excluded });
  });

  it('keeps bare "no", "not" and "without" as part of the request', () => {
    for (const q of [
      'classify images without a GPU',
      'a no-reference image quality model',
      'why is this not working',
      "I don't know where the payment logic lives",
    ])
      expect(splitQueryNegation(q)).toEqual({ wanted: q, excluded: '' });
  });
});
