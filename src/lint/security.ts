/**
 * The security group of lint codes (issue #28; docs/lint.md "Security", where each code's rationale
 * and false-positive note are written): remote code piped to a shell, downloads of executables,
 * credential stores read in a skill that also sends data or names URLs, decode-and-execute chains,
 * long encoded blobs, paste-site and raw-IP URLs, hidden characters in bodies and scripts, wide
 * `allowed-tools` in a skill from an untrusted scope, and hooks that run commands. HIDDEN_TEXT and
 * INSTRUCTION_LIKE (file-checks.ts) belong to the group too.
 *
 * Pure: the texts come in a SecuritySkill (security-inputs.ts reads them); patterns are in
 * security-patterns.ts. Quoted skill text is escaped, never raw. One finding per code and file,
 * located at its first match, with every match (at most MAX_MATCHES) in `details.matches`.
 */
import type { ScopeKind, SkillRecord } from '../skills/index.js';
import { escapeInvisible } from '../text/index.js';
import { LINT_CODES, type LintCode, type RawFinding } from './codes.js';
import { frontmatterLines } from './lines.js';
import {
  credentialReads,
  decodeExec,
  encodedBlobs,
  executableDownloads,
  hiddenCharacters,
  networkSends,
  normalizeShell,
  pasteSiteUrls,
  rawIpUrls,
  remoteCodePipes,
  urlIn,
  type PatternMatch,
} from './security-patterns.js';

/** The codes of the security group, in table order (`skilldex lint --only security`). */
export const SECURITY_CODES: readonly LintCode[] = [
  'HIDDEN_TEXT',
  'INSTRUCTION_LIKE',
  'REMOTE_CODE_PIPE',
  'CREDENTIAL_EXFIL',
  'ENCODED_EXEC',
  'EXECUTABLE_DOWNLOAD',
  'ENCODED_BLOB',
  'SUSPICIOUS_URL',
  'WIDE_ALLOWED_TOOLS',
  'HOOK_COMMAND',
  'SUPPRESSION_REFUSED',
  'SCAN_INCOMPLETE',
];

/**
 * Scopes whose skills the user put there themselves: `personal` (~/.claude/skills). Every other
 * scope holds skills someone else wrote or installed — a project's repository, an installer's
 * ~/.agents/skills, a plugin, a library under review (--scope) — so their wide `allowed-tools` is
 * reported.
 */
export const TRUSTED_SCOPES: ReadonlySet<ScopeKind> = new Set(['personal']);

/** Matches listed per finding; the rest are counted. */
export const MAX_MATCHES = 10;

/** One text file of a skill, as the checks read it. */
export interface SecurityText {
  /** Absolute path (findings are located here). */
  readonly path: string;
  readonly text: string;
  /** 1-based line where the scanned part starts (a SKILL.md's body; 1 for a script). */
  readonly firstLine: number;
  /**
   * True for a SKILL.md's frontmatter (from its line 1): scanned like the body, except for
   * invisible characters in the routed fields, which the per-field HIDDEN_TEXT check reports
   * (file-checks.ts).
   */
  readonly frontmatter?: boolean;
}

/** A hooks file a skill comes with (its plugin's hooks/hooks.json, or inline in plugin.json). */
export interface HooksFile {
  readonly path: string;
  readonly text: string;
  /** The parsed hooks object (`{ "hooks": { Event: [ { hooks: [ { type, command } ] } ] } }`). */
  readonly hooks: unknown;
}

/**
 * What the security checks read about one skill: its discovery record's id, SKILL.md path (as
 * walked), scope and frontmatter, and the texts read for them.
 */
export interface SecuritySkill extends Pick<
  SkillRecord,
  'skill_id' | 'path' | 'scope' | 'frontmatter'
> {
  /** The SKILL.md text (frontmatter and body). */
  readonly text: string;
  /** The body of the SKILL.md and the supporting text files. */
  readonly texts: readonly SecurityText[];
}

// The routed fields, whose invisible characters file-checks.ts reports per field (HIDDEN_TEXT).
const ROUTED_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'description',
  'when_to_use',
  'keywords',
  'tags',
]);

// The lines of a frontmatter text (from line 1) that hold a routed field: its key line to the line
// before the next top-level key.
function routedLines(frontmatter: string): Set<number> {
  const keys = [...frontmatterLines(frontmatter)].sort((a, b) => a[1] - b[1]);
  const last = frontmatter.split('\n').length;
  const out = new Set<number>();
  keys.forEach(([key, line], i) => {
    if (!ROUTED_FIELDS.has(key)) return;
    const end = (keys[i + 1]?.[1] ?? last + 1) - 1;
    for (let l = line; l <= end; l++) out.add(l);
  });
  return out;
}

/** The security findings of one skill (its plugin's hooks are checked by `checkPluginHooks`). */
export function checkSecurity(s: SecuritySkill): RawFinding[] {
  const out: RawFinding[] = [];
  const sends: PatternMatch[] = [];
  const urls: boolean[] = [];
  const creds: { file: SecurityText; matches: PatternMatch[] }[] = [];
  for (const t of s.texts) {
    const at = (ms: PatternMatch[]): PatternMatch[] =>
      ms.map((m) => ({ ...m, line: m.line + t.firstLine - 1 }));
    // The shell patterns read the text as the shell would: continued lines joined, `c"u"rl` undone.
    const shell = normalizeShell(t.text);
    const atShell = (ms: PatternMatch[]): PatternMatch[] => {
      // Overlapping windows of one long line can find one match twice: kept once.
      const seen = new Set<string>();
      return ms
        .map((m) => ({ ...m, line: shell.line(m.line) + t.firstLine - 1 }))
        .filter((m) => {
          const key = `${m.line}\u0000${m.kind}\u0000${m.text}`;
          return seen.has(key) ? false : (seen.add(key), true);
        });
    };
    const remote = atShell(remoteCodePipes(shell.text));
    if (remote.length > 0) out.push(remoteFinding(s, t, remote));
    const exec = atShell(decodeExec(shell.text));
    if (exec.length > 0) out.push(finding(s, t.path, 'ENCODED_EXEC', exec, 'decoded content run'));
    const downloads = atShell(executableDownloads(shell.text));
    if (downloads.length > 0)
      out.push(finding(s, t.path, 'EXECUTABLE_DOWNLOAD', downloads, 'executable downloaded'));
    const blobs = at(encodedBlobs(t.text));
    if (blobs.length > 0) out.push(finding(s, t.path, 'ENCODED_BLOB', blobs, 'long encoded blob'));
    const odd = at([...pasteSiteUrls(t.text), ...rawIpUrls(t.text)]);
    if (odd.length > 0) out.push(finding(s, t.path, 'SUSPICIOUS_URL', odd, 'suspicious URL'));
    const hidden = at(hiddenCharacters(t.text)).filter(
      (m) => t.frontmatter !== true || !routedLines(t.text).has(m.line),
    );
    if (hidden.length > 0) out.push(hiddenFinding(s, t.path, hidden));
    const c = atShell(credentialReads(shell.text));
    if (c.length > 0) creds.push({ file: t, matches: c });
    sends.push(...atShell(networkSends(shell.text)), ...odd);
    urls.push(/\bhttps?:\/\/(?!localhost\b|127\.0\.0\.1\b)[\w.-]+\.[a-z]{2,}/i.test(t.text));
  }
  // A credential read is reported only in a skill that can also send it somewhere.
  if (creds.length > 0 && (sends.length > 0 || urls.some(Boolean))) {
    for (const c of creds) out.push(credentialFinding(s, c.file, c.matches, sends));
  }
  out.push(...checkAllowedTools(s), ...checkFrontmatterHooks(s));
  return out;
}

function finding(
  s: Pick<SecuritySkill, 'skill_id'>,
  path: string,
  code: LintCode,
  unsorted: readonly PatternMatch[],
  what: string,
  extra: Partial<Pick<RawFinding, 'severity' | 'fix' | 'field'>> & {
    details?: Record<string, unknown>;
  } = {},
): RawFinding {
  const matches = [...unsorted].sort((a, b) => a.line - b.line);
  const first = matches[0]!;
  const quoted = first.text === '' ? '' : `: ${JSON.stringify(escapeInvisible(first.text))}`;
  const more = matches.length > 1 ? ` (and ${matches.length - 1} more)` : '';
  return {
    code,
    severity: extra.severity ?? LINT_CODES[code].severity,
    skill_ids: [s.skill_id],
    path,
    line: first.line,
    ...(extra.field !== undefined ? { field: extra.field } : {}),
    message: `${what}, ${first.kind}${quoted}${more}`,
    fix: extra.fix ?? FIX[code],
    details: {
      matches: matches
        .slice(0, MAX_MATCHES)
        .map((m) => ({ line: m.line, kind: m.kind, text: m.text })),
      count: matches.length,
      ...(extra.details ?? {}),
    },
  };
}

// What an author does about each code (docs/lint.md has the rationale and the false positives).
const FIX: Partial<Record<LintCode, string>> = {
  REMOTE_CODE_PIPE:
    'pin what is installed (a package manager, a release with a checksum) instead of running a download; a reviewer must be able to read what runs',
  CREDENTIAL_EXFIL:
    "never read credential stores in a skill; let the user's own tools authenticate (a CLI login, an environment variable the user sets)",
  ENCODED_EXEC: 'ship the decoded script as a readable file, or remove it',
  EXECUTABLE_DOWNLOAD:
    'install through a package manager, or verify the download against a published checksum before running it',
  ENCODED_BLOB: 'ship the data as a readable file (or a real binary asset) and say what it is',
  SUSPICIOUS_URL:
    "link to the project's own domain over https; never to a paste site, a tunnel or a bare IP",
  WIDE_ALLOWED_TOOLS: 'narrow allowed-tools to the commands the skill runs, e.g. Bash(git diff *)',
  HOOK_COMMAND: 'check the command it runs; remove hooks a skill does not need',
  HIDDEN_TEXT: 'delete the invisible characters: a reader cannot see what the agent is told',
};

// An insecure source (plain http, a raw IP, a paste site) makes a remote pipe an error.
function remoteFinding(
  s: SecuritySkill,
  t: SecurityText,
  matches: readonly PatternMatch[],
): RawFinding {
  const insecure = matches.some((m) => {
    const url = urlIn(m.text);
    return (
      url !== undefined &&
      (/^http:/i.test(url) || rawIpUrls(url).length > 0 || pasteSiteUrls(url).length > 0)
    );
  });
  return finding(s, t.path, 'REMOTE_CODE_PIPE', matches, 'remote code run by a shell', {
    severity: insecure ? 'error' : LINT_CODES.REMOTE_CODE_PIPE.severity,
    details: { insecure_source: insecure },
  });
}

function hiddenFinding(
  s: SecuritySkill,
  path: string,
  matches: readonly PatternMatch[],
): RawFinding {
  const chars = [...new Set(matches.flatMap((m) => m.kind.split(', ')))];
  return {
    ...finding(s, path, 'HIDDEN_TEXT', matches, 'invisible characters in the text'),
    message: `invisible or bidi-control characters ${chars.join(', ')} on ${matches.length} line(s), first at line ${matches[0]!.line}`,
    details: {
      characters: chars,
      lines: matches.slice(0, MAX_MATCHES).map((m) => m.line),
      count: matches.length,
    },
  };
}

function credentialFinding(
  s: SecuritySkill,
  t: SecurityText,
  matches: readonly PatternMatch[],
  sends: readonly PatternMatch[],
): RawFinding {
  return finding(s, t.path, 'CREDENTIAL_EXFIL', matches, 'credential store read', {
    details: {
      sends: sends.slice(0, MAX_MATCHES).map((m) => ({ kind: m.kind, text: m.text })),
    },
  });
}

/**
 * The tools of an `allowed-tools` value: a YAML list, or one string of names separated by commas
 * or spaces (spaces inside a `Tool(…)` pattern stay with it).
 */
export function allowedToolsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (typeof value !== 'string') return [];
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  for (const ch of value) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
      if (cur.trim() !== '') out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim() !== '') out.push(cur.trim());
  return out;
}

/** True for a tool entry that allows any command: `Bash`, `Bash(*)`, `Bash(*:*)`, `*`. */
export function isWideTool(tool: string): boolean {
  const t = tool.replace(/\s+/g, '');
  return /^(?:\*|Bash|Bash\(\*+(?::\*+)?\)|Bash\(\)|PowerShell|PowerShell\(\*+\))$/i.test(t);
}

function checkAllowedTools(s: SecuritySkill): RawFinding[] {
  if (TRUSTED_SCOPES.has(s.scope)) return [];
  const wide = allowedToolsOf(s.frontmatter['allowed-tools']).filter(isWideTool);
  if (wide.length === 0) return [];
  const line = frontmatterLines(s.text).get('allowed-tools') ?? 1;
  return [
    {
      code: 'WIDE_ALLOWED_TOOLS',
      severity: LINT_CODES.WIDE_ALLOWED_TOOLS.severity,
      skill_ids: [s.skill_id],
      path: s.path,
      line,
      field: 'allowed-tools',
      message: `allowed-tools lets any command run without a permission prompt (${wide.map((w) => JSON.stringify(escapeInvisible(w))).join(', ')}) in a skill from the ${s.scope} scope`,
      fix: FIX.WIDE_ALLOWED_TOOLS!,
      details: { tools: wide, scope: s.scope },
    },
  ];
}

/** The command hooks of a hooks object: `[{ event, command }]` in document order. */
export function commandHooks(hooks: unknown): { event: string; command: string }[] {
  const out: { event: string; command: string }[] = [];
  if (hooks === null || typeof hooks !== 'object' || Array.isArray(hooks)) return out;
  const walk = (event: string, v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) walk(event, x);
    else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (o['type'] === 'command' && typeof o['command'] === 'string')
        out.push({ event, command: o['command'] });
      for (const [k, x] of Object.entries(o)) if (k !== 'command') walk(event, x);
    }
  };
  for (const [event, v] of Object.entries(hooks as Record<string, unknown>)) walk(event, v);
  return out;
}

function checkFrontmatterHooks(s: SecuritySkill): RawFinding[] {
  const hooks = commandHooks(s.frontmatter['hooks']);
  if (hooks.length === 0) return [];
  const line = frontmatterLines(s.text).get('hooks') ?? 1;
  return [hookFinding([s.skill_id], s.path, line, hooks, 'hooks')];
}

function hookFinding(
  skillIds: readonly string[],
  path: string,
  line: number,
  hooks: readonly { event: string; command: string }[],
  field?: string,
): RawFinding {
  const first = hooks[0]!;
  return {
    code: 'HOOK_COMMAND',
    severity: LINT_CODES.HOOK_COMMAND.severity,
    skill_ids: skillIds,
    path,
    line,
    ...(field !== undefined ? { field } : {}),
    message: `${hooks.length} hook(s) run a command without the agent deciding to, first on ${escapeInvisible(first.event)}: ${JSON.stringify(escapeInvisible(first.command.slice(0, 160)))}`,
    fix: FIX.HOOK_COMMAND!,
    details: { hooks: hooks.slice(0, MAX_MATCHES), count: hooks.length },
  };
}

/** HOOK_COMMAND for a plugin's hooks file, naming every linted skill of that plugin. */
export function checkPluginHooks(file: HooksFile, skillIds: readonly string[]): RawFinding[] {
  const root = file.hooks;
  const hooks = commandHooks(
    root !== null && typeof root === 'object' && 'hooks' in root
      ? (root as { hooks: unknown }).hooks
      : root,
  );
  if (hooks.length === 0) return [];
  const at = file.text.indexOf('"command"');
  const line = at < 0 ? 1 : file.text.slice(0, at).split('\n').length;
  return [hookFinding([...skillIds].sort(), file.path, line, hooks)];
}
