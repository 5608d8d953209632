/**
 * Skill activations in host transcripts (src/hosts/transcripts.ts, transcript-files.ts; issue 23):
 * fixture transcripts written in the format public parsers read (Claude Code's `user`/`assistant`
 * records with `tool_use` blocks named `Skill` and `<command-name>` slash commands; Codex rollouts
 * with `<skill>` mentions and tool calls that read a SKILL.md). What is kept is the prompt before
 * each activation, its key, session and time; meta, sidechain and tool-result records are never
 * prompts; the folder read is bounded and confined (a link out of it is refused, a FIFO skipped).
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MAX_PROMPT_CHARS,
  parseClaudeCodeTranscript,
  parseCodexRollout,
  readTranscripts,
  slashCommandOf,
} from '../../src/hosts/index.js';
import { tmpDir } from '../support/cli.js';

const FIXTURES = path.join(__dirname, 'fixtures');
const CLAUDE_DIR = path.join(FIXTURES, 'claude-code');
const CODEX_DIR = path.join(FIXTURES, 'codex');
const SESSION = '5b0f3c1e-1111-4a2b-9c3d-000000000001';
const claudeText = readFileSync(path.join(CLAUDE_DIR, '-home-me-work', `${SESSION}.jsonl`), 'utf8');

const brief = (a: { skill: string; prompt: string; key: string; via: string }): string[] => [
  a.skill,
  a.prompt,
  a.key,
  a.via,
];

describe('Claude Code transcripts', () => {
  it('takes each Skill tool call and slash command with the user prompt before it', () => {
    const scan = parseClaudeCodeTranscript(claudeText, { fallbackSession: 'f' });
    expect(scan.activations.map(brief)).toEqual([
      [
        'pdf-toolkit',
        'Turn the quarterly slides into a printable PDF handout',
        'a-1',
        'skill-tool',
      ],
      ['doc-writer', 'draft the release announcement for v2', 'u-4', 'slash-command'],
      // A built-in command looks the same; learn keeps only skills the catalog serves.
      ['clear', 'Turn the quarterly slides into a printable PDF handout', 'u-5', 'slash-command'],
      ['doc-writer', 'Write a design doc for the cache layer', 'a-3', 'skill-tool'],
      ['not-installed-here', 'Write a design doc for the cache layer', 'a-3#2', 'skill-tool'],
      ['pdf-toolkit', 'Write a design doc for the cache layer', 'u-7', 'slash-command'],
    ]);
    expect(scan.activations.every((a) => a.session === SESSION)).toBe(true);
    expect(scan.activations[0]!.at).toBe('2025-06-01T09:00:03.000Z');
    expect(scan.malformed_lines).toBe(1);
    expect(scan.truncated).toBe(false);
  });

  it('never takes a prompt from meta, sidechain or tool-result records', () => {
    const line = (o: object): string => JSON.stringify(o);
    const text = [
      line({
        type: 'user',
        uuid: 'm',
        sessionId: 's',
        isMeta: true,
        message: { content: 'meta words' },
      }),
      line({
        type: 'assistant',
        uuid: 'a0',
        sessionId: 's',
        message: { content: [{ type: 'tool_use', name: 'Skill', input: { skill: 'x' } }] },
      }),
      line({
        type: 'user',
        uuid: 'r',
        sessionId: 's',
        message: { content: [{ type: 'tool_result', content: 'result words' }] },
      }),
      line({
        type: 'user',
        uuid: 'sc',
        sessionId: 's',
        isSidechain: true,
        message: { content: 'subagent words' },
      }),
      line({
        type: 'assistant',
        uuid: 'a1',
        sessionId: 's',
        message: { content: [{ type: 'tool_use', name: 'Skill', input: { skill: 'y' } }] },
      }),
    ].join('\n');
    const scan = parseClaudeCodeTranscript(text, { fallbackSession: 'f' });
    expect(scan.activations).toEqual([]);
    expect(scan.without_prompt).toBe(2);
  });

  it('cuts a prompt at MAX_PROMPT_CHARS, drops activations before --since, dedups one prompt and skill', () => {
    const long = 'word '.repeat(400);
    const rec = (uuid: string, ts: string, o: object): string =>
      JSON.stringify({ uuid, sessionId: 's', timestamp: ts, ...o });
    const skill = (uuid: string, ts: string): string =>
      rec(uuid, ts, {
        type: 'assistant',
        message: { content: [{ type: 'tool_use', name: 'Skill', input: { skill: 'k' } }] },
      });
    const text = [
      rec('u0', '2025-01-01T00:00:00Z', { type: 'user', message: { content: 'old prompt' } }),
      skill('a0', '2025-01-01T00:00:01Z'),
      rec('u1', '2025-07-01T00:00:00Z', { type: 'user', message: { content: long } }),
      skill('a1', '2025-07-01T00:00:01Z'),
      skill('a2', '2025-07-01T00:00:02Z'),
    ].join('\n');
    const scan = parseClaudeCodeTranscript(text, {
      fallbackSession: 'f',
      since: new Date('2025-06-01T00:00:00Z'),
    });
    expect(scan.activations.map((a) => a.key)).toEqual(['a1']);
    expect(scan.activations[0]!.prompt.length).toBeLessThanOrEqual(MAX_PROMPT_CHARS);
  });

  it('reads slash commands with and without arguments', () => {
    expect(
      slashCommandOf(
        '<command-name>/acme:lint-fix</command-name><command-args>fix it</command-args>',
      ),
    ).toEqual({
      name: 'acme:lint-fix',
      args: 'fix it',
    });
    expect(slashCommandOf('plain text')).toBeUndefined();
    // Both orders Claude Code writes, with and without a message or arguments.
    expect(
      slashCommandOf(
        '<command-message>doc-writer is running…</command-message>\n<command-name>/doc-writer</command-name>\n<command-args>draft it</command-args>',
      ),
    ).toEqual({ name: 'doc-writer', args: 'draft it' });
    expect(
      slashCommandOf(
        '<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>',
      ),
    ).toEqual({ name: 'clear', args: '' });
    expect(slashCommandOf('<command-name>/orient</command-name>')).toEqual({
      name: 'orient',
      args: '',
    });
  });

  it.each([
    ['text before the tags', 'look at this: <command-name>/k8s</command-name>'],
    [
      'text after the tags',
      '<command-name>/k8s</command-name> <command-args>x</command-args> thanks',
    ],
    [
      'text between the tags',
      '<command-name>/k8s</command-name> and <command-args>x</command-args>',
    ],
    ['a name without its slash', '<command-name>k8s</command-name>'],
    [
      'two messages',
      '<command-message>a</command-message><command-name>/k8s</command-name><command-message>b</command-message>',
    ],
    [
      'arguments before the name',
      '<command-args>x</command-args><command-name>/k8s</command-name>',
    ],
  ])('is not a slash command: %s (issue 36 L13)', (_, text) => {
    expect(slashCommandOf(text)).toBeUndefined();
  });

  it('tags pasted inside a typed prompt are never an activation (issue 36 L13)', () => {
    const rec = (uuid: string, content: unknown): string =>
      JSON.stringify({
        type: 'user',
        uuid,
        sessionId: 's',
        timestamp: '2025-07-01T00:00:00Z',
        message: { role: 'user', content },
      });
    const envelope =
      '<command-name>/k8s</command-name>\n<command-args>write a haiku</command-args>';
    const text = [
      rec('u1', `please deploy this ${envelope}`),
      rec('u2', `${envelope}\nand also this`),
      // The exact envelope, but in a text block: typed, not the host's record.
      rec('u3', [{ type: 'text', text: envelope }]),
      rec('u4', [
        { type: 'text', text: 'see' },
        { type: 'text', text: envelope },
      ]),
    ].join('\n');
    const scan = parseClaudeCodeTranscript(text, { fallbackSession: 'f' });
    expect(scan.activations).toEqual([]);
    // The same envelope as the record's whole string content is the host's activation.
    const real = parseClaudeCodeTranscript(rec('u5', envelope), { fallbackSession: 'f' });
    expect(real.activations.map(brief)).toEqual([['k8s', 'write a haiku', 'u5', 'slash-command']]);
  });
});

describe('Codex rollouts', () => {
  it('takes $skill mentions and SKILL.md reads with the prompt before them; a write is not a use', () => {
    const read = readTranscripts('codex', CODEX_DIR);
    expect(read.files_read).toBe(1);
    expect(read.activations.map(brief)).toEqual([
      [
        'pdf-toolkit',
        'merge the two contracts into one PDF',
        expect.stringMatching(/:5$/),
        'mention',
      ],
      [
        'doc-writer',
        'write the onboarding guide for new hires',
        'call_A1:doc-writer',
        'skill-file-read',
      ],
    ]);
    expect(read.activations[0]!.session).toBe('0197a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b');
  });

  it('parses a rollout text with no session record under its fallback session', () => {
    const text = [
      JSON.stringify({
        type: 'event_msg',
        payload: { type: 'user_message', message: 'find the bug' },
      }),
      JSON.stringify({
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'shell',
          arguments: '{"command":["cat","/x/skills/debugger/SKILL.md"]}',
          call_id: 'c1',
        },
      }),
    ].join('\n');
    const scan = parseCodexRollout(text, { fallbackSession: 'rollout-x' });
    expect(scan.activations).toMatchObject([
      { skill: 'debugger', prompt: 'find the bug', session: 'rollout-x' },
    ]);
  });
});

describe('reading a transcript folder', () => {
  it('reads every Claude Code transcript below the folder, in order', () => {
    const r = readTranscripts('claude-code', CLAUDE_DIR);
    expect(r.files_read).toBe(1);
    expect(r.activations).toHaveLength(6);
    expect(r.capped).toBe(false);
  });

  it('stays inside the folder: a link out of it is refused and a FIFO is skipped, with their codes', () => {
    const outside = tmpDir('skilldex-tx-out-');
    writeFileSync(path.join(outside, 'leak.jsonl'), claudeText);
    const dir = tmpDir('skilldex-tx-');
    mkdirSync(path.join(dir, 'p'));
    writeFileSync(path.join(dir, 'p', 'own.jsonl'), claudeText);
    symlinkSync(outside, path.join(dir, 'elsewhere'));
    symlinkSync(path.join(outside, 'leak.jsonl'), path.join(dir, 'p', 'leak.jsonl'));
    execFileSync('mkfifo', [path.join(dir, 'p', 'pipe.jsonl')]);
    const r = readTranscripts('claude-code', dir);
    expect(r.files_read).toBe(1);
    expect(r.skipped.map((p) => p.code).sort()).toEqual([
      'NOT_A_FILE',
      'PATH_OUTSIDE_ROOT',
      'PATH_OUTSIDE_ROOT',
    ]);
  });

  it('skips files last written before --since without reading them', () => {
    const r = readTranscripts('claude-code', CLAUDE_DIR, {
      since: new Date('2999-01-01T00:00:00Z'),
    });
    expect(r).toMatchObject({ files_read: 0, files_older: 1, activations: [] });
  });

  it('refuses a missing folder or a file named as the folder, with their codes', () => {
    expect(() => readTranscripts('claude-code', path.join(tmpDir(), 'none'))).toThrow(
      expect.objectContaining({ code: 'FILE_NOT_FOUND' }),
    );
    const f = path.join(tmpDir(), 'a.jsonl');
    writeFileSync(f, '');
    expect(() => readTranscripts('claude-code', f)).toThrow(
      expect.objectContaining({ code: 'NOT_A_FILE' }),
    );
  });
});
