/**
 * Skill activations in a host's own session transcripts (issue 23 "learn from the host's own
 * history"): each time the host used a skill, the user prompt that led to it. Pure functions over
 * the text of one JSONL transcript; they never read files (transcript-files.ts does, bounded), never
 * keep more of a prompt than MAX_PROMPT_CHARS, and never keep anything but the prompt, the skill
 * name the host used, the session and the time.
 *
 * Claude Code (`~/.claude/projects/<project>/<session>.jsonl`), one JSON object per line: `user`
 * and `assistant` records with `uuid`, `sessionId`, `timestamp`, `isMeta`, `isSidechain` and
 * `message.content` (a string, or blocks of `text`, `tool_use`, `tool_result`). A model activation
 * is an assistant `tool_use` block named `Skill` whose `input.skill` names the skill; a user's
 * `/name args` is a user record whose whole string content is the envelope
 * `<command-name>/name</command-name>` `<command-args>args</command-args>` (slashCommandOf: the
 * same tags inside a typed prompt are not an activation). Format as public parsers read it:
 * kvsankar/agent-history docs/specs/agents/formats/claude-code-format.md (records, content blocks),
 * lejoe/claude-plugins skills/cc-sessions-review/references/session-parsing.md (user text vs tool
 * results), and transcript readers that take `input.skill` from `tool_use` blocks named `Skill`.
 *
 * Codex (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`), `{ timestamp, type, payload }` lines:
 * `session_meta` (its `payload.id` is the session), `event_msg` with `payload.type: user_message`
 * (the prompt as typed), `response_item` messages and tool calls. A `$skill` mention makes Codex
 * add a user message `<skill>\n<name>NAME</name>\n<path>PATH</path>…` (openai/codex
 * codex-rs/core-skills/src/skill_instructions.rs); a skill the model chose itself shows as a tool
 * call that reads its `SKILL.md`. Format: kvsankar/agent-history
 * docs/specs/agents/formats/codex-cli-format.md (from codex-rs rollout/recorder.rs).
 */

/** Longest prompt kept, in characters (MAX_EXAMPLE_CHARS of the usage examples). */
export const MAX_PROMPT_CHARS = 1_000;

/** Most lines of one transcript read; the rest is ignored and reported. */
export const MAX_TRANSCRIPT_LINES = 200_000;

/** Hosts whose transcripts skilldex reads. */
export type TranscriptHost = 'claude-code' | 'codex';

/** How the host came to use the skill. */
export type ActivationVia = 'skill-tool' | 'slash-command' | 'mention' | 'skill-file-read';

/** One skill activation with the prompt before it. */
export interface Activation {
  /** Stable across reads of the same transcript: the record's uuid (Claude Code) or call id. */
  readonly key: string;
  /** The skill as the host named it (`name` or `plugin:name`). */
  readonly skill: string;
  readonly prompt: string;
  readonly session: string;
  /** ISO time of the activation ('' when the record has none). */
  readonly at: string;
  readonly via: ActivationVia;
}

/** What one transcript held. */
export interface TranscriptScan {
  readonly activations: Activation[];
  /** Activations with no user prompt before them in the session (not kept). */
  readonly without_prompt: number;
  /** Lines that are not JSON objects (skipped). */
  readonly malformed_lines: number;
  /** True when the transcript had more than MAX_TRANSCRIPT_LINES lines. */
  readonly truncated: boolean;
}

/** Options of a transcript parse. */
export interface TranscriptOptions {
  /** Drop activations before this time (ISO 8601 compared as instants). */
  readonly since?: Date;
  /** Session id when the records carry none (the file name without `.jsonl`). */
  readonly fallbackSession: string;
}

type Rec = Record<string, unknown>;

function obj(v: unknown): Rec | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

// A prompt as kept: harness reminders removed, whitespace runs as one space, at most MAX_PROMPT_CHARS.
function cleanPrompt(text: string): string {
  return text
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_PROMPT_CHARS)
    .trim();
}

/** Iterates the JSON object lines of a transcript (at most MAX_TRANSCRIPT_LINES). */
function* records(
  text: string,
  counts: { malformed: number; truncated: boolean },
): Generator<{ rec: Rec; line: number }> {
  let start = 0;
  let line = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    line++;
    if (line > MAX_TRANSCRIPT_LINES) {
      counts.truncated = true;
      return;
    }
    const raw = text.slice(start, end).trim();
    start = end + 1;
    if (raw === '') continue;
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch {
      counts.malformed++;
      continue;
    }
    const rec = obj(v);
    if (rec) yield { rec, line };
    else counts.malformed++;
  }
}

// Keeps the first activation of each (session, skill, prompt): a skill used twice for one prompt is one example.
class Collector {
  readonly activations: Activation[] = [];
  withoutPrompt = 0;
  private readonly seen = new Set<string>();
  constructor(private readonly since: Date | undefined) {}

  add(a: Omit<Activation, 'prompt'> & { prompt: string | undefined }): void {
    if (this.since && a.at !== '' && Date.parse(a.at) < this.since.getTime()) return;
    if (a.skill === '' || a.prompt === undefined || a.prompt === '') {
      if (a.skill !== '') this.withoutPrompt++;
      return;
    }
    const dedup = `${a.session}\u0000${a.skill}\u0000${a.prompt}`;
    if (this.seen.has(dedup)) return;
    this.seen.add(dedup);
    this.activations.push({ ...a, prompt: a.prompt });
  }
}

/**
 * The slash command of a Claude Code user text: `/name` and its arguments, only when the whole text
 * is the envelope Claude Code writes for a slash-command or skill activation — a
 * `<command-name>/name</command-name>`, at most one `<command-message>` before or after it and at
 * most one `<command-args>` last, separated by whitespace only (issue 36 L13). Tags pasted by a
 * person inside a typed prompt are not an activation. Shapes as Claude Code writes them:
 * `<command-message>name is running…</command-message>\n<command-name>/name</command-name>\n<command-args>…</command-args>`
 * (2.x) and `<command-name>/clear</command-name>\n<command-message>clear</command-message>\n<command-args></command-args>`
 * (earlier), as public Claude Code transcripts and transcript readers' test fixtures show them
 * (found with the search tool; the repositories were not named), always as the record's whole
 * string `message.content` — a typed prompt is a string or text blocks too (record shape:
 * kvsankar/agent-history docs/specs/agents/formats/claude-code-format.md,
 * DRMacIver/claude-reliability notes/transcript-format.md).
 */
export function slashCommandOf(text: string): { name: string; args: string } | undefined {
  const m = SLASH_ENVELOPE.exec(text);
  if (!m || (text.match(/<command-message>/g) ?? []).length > 1) return undefined;
  return { name: m[1]!, args: m[2] ?? '' };
}

const SLASH_ENVELOPE =
  /^\s*(?:<command-message>[^<]*<\/command-message>\s*)?<command-name>\/([^<\s/][^<\s]*)<\/command-name>\s*(?:<command-message>[^<]*<\/command-message>\s*)?(?:<command-args>([\s\S]*)<\/command-args>\s*)?$/;

// The typed text of a Claude Code user record, or undefined for tool results, meta and harness text.
function claudeUserText(rec: Rec): string | undefined {
  const content = obj(rec['message'])?.['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const blocks = content.map(obj);
  if (blocks.some((b) => b?.['type'] === 'tool_result')) return undefined;
  const texts = blocks.filter((b) => b?.['type'] === 'text').map((b) => str(b?.['text']) ?? '');
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/** The skill activations of one Claude Code transcript (sidechain and meta records skipped). */
export function parseClaudeCodeTranscript(
  text: string,
  options: TranscriptOptions,
): TranscriptScan {
  const counts = { malformed: 0, truncated: false };
  const out = new Collector(options.since);
  const lastPrompt = new Map<string, string>();
  for (const { rec, line } of records(text, counts)) {
    if (rec['isSidechain'] === true || rec['isMeta'] === true) continue;
    const session = str(rec['sessionId']) ?? options.fallbackSession;
    const uuid = str(rec['uuid']) ?? `${options.fallbackSession}:${line}`;
    const at = str(rec['timestamp']) ?? '';
    if (rec['type'] === 'user') {
      const t = claudeUserText(rec);
      if (t === undefined) continue;
      // Claude Code writes an activation's envelope as the record's whole string content; a typed
      // prompt (string or text blocks) that merely holds the tags is a prompt, never an activation.
      const content = obj(rec['message'])?.['content'];
      const slash = typeof content === 'string' ? slashCommandOf(content) : undefined;
      if (slash) {
        const args = cleanPrompt(slash.args);
        const prompt = args !== '' ? args : lastPrompt.get(session);
        // Built-in commands (`/clear`, `/model opus`) look the same: learn keeps only served skills,
        // and a command's arguments never become the prompt of a later activation.
        out.add({ key: uuid, skill: slash.name, prompt, session, at, via: 'slash-command' });
        continue;
      }
      // Harness text (local command output, caveats, interruptions) is not the user's prompt.
      if (
        /^\s*<(local-command|command-|bash-|user-memory)/.test(t) ||
        t.startsWith('[Request interrupted')
      )
        continue;
      const p = cleanPrompt(t);
      if (p !== '') lastPrompt.set(session, p);
    } else if (rec['type'] === 'assistant') {
      const content = obj(rec['message'])?.['content'];
      if (!Array.isArray(content)) continue;
      let n = 0;
      for (const b of content.map(obj)) {
        if (b?.['type'] !== 'tool_use' || b['name'] !== 'Skill') continue;
        const input = obj(b['input']);
        const skill = (str(input?.['skill']) ?? str(input?.['name']))?.trim() ?? '';
        const key = n++ === 0 ? uuid : `${uuid}#${n}`;
        out.add({ key, skill, prompt: lastPrompt.get(session), session, at, via: 'skill-tool' });
      }
    }
  }
  return {
    activations: out.activations,
    without_prompt: out.withoutPrompt,
    malformed_lines: counts.malformed,
    truncated: counts.truncated,
  };
}

// A Codex prompt as kept: its `$skill` mentions removed (they name the skill, not the need).
function codexPrompt(text: string): string {
  return cleanPrompt(text.replace(/(^|\s)\$[A-Za-z0-9][\w.:-]*/g, ' '));
}

// `<skill><name>N</name><path>P</path>…`: the message Codex adds for a `$skill` mention.
function codexMention(text: string): string | undefined {
  if (!text.trimStart().startsWith('<skill>')) return undefined;
  return /<name>([^<]+)<\/name>/.exec(text)?.[1]?.trim();
}

// The folder names of SKILL.md files a tool call's arguments read (`cat …/pdf/SKILL.md`).
function skillFileReads(args: string): string[] {
  // A call that writes (redirection, tee, a patch) edits a skill rather than uses it.
  if (/(^|[^>])>[^>&]|\btee\b|apply_patch|\*\*\* (Update|Add) File/.test(args)) return [];
  const out: string[] = [];
  for (const m of args.matchAll(/([^\s"'`\\]*\/)?([^\s/"'`\\]+)\/SKILL\.md\b/g)) out.push(m[2]!);
  return [...new Set(out)];
}

function codexCallArguments(p: Rec): string {
  const a = p['arguments'] ?? p['input'] ?? obj(p['action'])?.['command'];
  if (typeof a === 'string') return a;
  return a === undefined ? '' : JSON.stringify(a);
}

/**
 * The skill activations of one Codex rollout: `$skill` mentions, and tool calls that read a
 * SKILL.md (the skill is its folder's name; learn keeps only names the catalog serves).
 */
export function parseCodexRollout(text: string, options: TranscriptOptions): TranscriptScan {
  const counts = { malformed: 0, truncated: false };
  const out = new Collector(options.since);
  let session = options.fallbackSession;
  let prompt: string | undefined;
  for (const { rec, line } of records(text, counts)) {
    const p = obj(rec['payload']);
    if (!p) continue;
    const at = str(rec['timestamp']) ?? '';
    const type = rec['type'];
    if (type === 'session_meta') {
      session = str(p['id']) ?? session;
    } else if (type === 'event_msg' && p['type'] === 'user_message') {
      const m = codexPrompt(str(p['message']) ?? '');
      if (m !== '') prompt = m;
    } else if (type === 'response_item' && p['type'] === 'message' && p['role'] === 'user') {
      const items = Array.isArray(p['content']) ? p['content'].map(obj) : [];
      for (const item of items) {
        const t = str(item?.['text']) ?? '';
        const skill = codexMention(t);
        if (skill !== undefined)
          out.add({ key: `${session}:${line}`, skill, prompt, session, at, via: 'mention' });
        else if (!t.trimStart().startsWith('<') && codexPrompt(t) !== '') prompt = codexPrompt(t);
      }
    } else if (
      type === 'response_item' &&
      /(function|custom_tool|local_shell)_call$/.test(str(p['type']) ?? '')
    ) {
      const id = str(p['call_id']) ?? str(p['id']) ?? `${session}:${line}`;
      for (const skill of skillFileReads(codexCallArguments(p)))
        out.add({ key: `${id}:${skill}`, skill, prompt, session, at, via: 'skill-file-read' });
    }
  }
  return {
    activations: out.activations,
    without_prompt: out.withoutPrompt,
    malformed_lines: counts.malformed,
    truncated: counts.truncated,
  };
}
