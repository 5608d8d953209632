/**
 * Settings of a host that keep it from running a skilldex hook that is in its hook settings
 * (issue 35: doctor names every way the set-up can be broken): Gemini CLI's hooks system or hook
 * switched off, VS Code's hook folder not loaded. Read as data; each cites the host's source.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { readTextCapped } from '../../fsx/index.js';
import { sanitizeField } from '../../text/index.js';
import { valueAt } from '../init/json-edit.js';
import { parseTomlText } from '../init/toml-edit.js';
import { readJsonFile, type DoctorOptions } from './check.js';

/**
 * Why Gemini CLI would not run skilldex's hook although it is in its settings: the hooks system
 * switched off (`hooksConfig.enabled: false`, "the canonical toggle for the hooks system"), or the
 * hook named in `hooksConfig.disabled` (hook names or commands; `/hooks disable skilldex` writes it)
 * — google-gemini/gemini-cli packages/cli/src/config/settingsSchema.ts (hooksConfig); older
 * releases kept that list in `hooks.disabled` (docs/hooks/index.md, "Disabled hooks configuration").
 */
export function geminiHookOff(
  file: string,
  cmd: string,
): { message: string; fix: string } | undefined {
  let doc: unknown;
  try {
    doc = readJsonFile(file, true);
  } catch {
    return undefined; // Read above already.
  }
  if (valueAt(doc, ['hooksConfig', 'enabled']) === false)
    return {
      message: `Gemini CLI's hooks system is off in ${file} (hooksConfig.enabled: false): no hook runs, skilldex's included`,
      fix: `set "hooksConfig": {"enabled": true} in ${file} (or /settings, Enable Hooks, in Gemini CLI; it needs a restart)`,
    };
  for (const at of [
    ['hooksConfig', 'disabled'],
    ['hooks', 'disabled'],
  ]) {
    const list = valueAt(doc, at);
    if (Array.isArray(list) && list.some((n) => n === 'skilldex' || n === cmd))
      return {
        message: `Gemini CLI has skilldex's hook disabled in ${file} (${at.join('.')} names it), so it never runs`,
        fix: `/hooks enable skilldex in Gemini CLI, or remove "skilldex" from ${at.join('.')} in ${file}`,
      };
  }
  return undefined;
}

/**
 * Why Claude Code would not run skilldex's hook although it is in `~/.claude/settings.json`: the
 * same file sets `"disableAllHooks": true` ("Disable all hooks", code.claude.com/docs/en/settings;
 * also `/hooks` in Claude Code). Read as data; a file that does not parse was named above.
 */
export function claudeHookOff(file: string): { message: string; fix: string } | undefined {
  let doc: unknown;
  try {
    doc = readJsonFile(file);
  } catch {
    return undefined;
  }
  if (valueAt(doc, ['disableAllHooks']) !== true) return undefined;
  return {
    message: `Claude Code runs no hook: "disableAllHooks" is true in ${file}, so skilldex's prompt hook never runs`,
    fix: `remove "disableAllHooks": true from ${file}`,
  };
}

/**
 * Why Codex would not run skilldex's hook although it is in `$CODEX_HOME/hooks.json`: the user's
 * own `$CODEX_HOME/config.toml` (beside it) turns hooks off with `[features] hooks = false` (or the
 * older `codex_hooks = false`) — developers.openai.com/codex/hooks, as src/hosts/codex-project.ts
 * cites it for a project's layer (issue 35: hooks are on by default, so only an explicit false
 * counts). A file that does not parse is left to Codex to report.
 */
export function codexHookOff(hooksFile: string): { message: string; fix: string } | undefined {
  const file = path.join(path.dirname(hooksFile), 'config.toml');
  if (!existsSync(file)) return undefined;
  const r = readTextCapped(file, { maxBytes: 4 * 1024 * 1024 });
  if (!r.ok) return undefined;
  let features: unknown;
  try {
    features = parseTomlText(r.text)['features'];
  } catch {
    return undefined;
  }
  for (const key of ['hooks', 'codex_hooks'])
    if (valueAt(features, [key]) === false)
      return {
        message: `Codex's hooks are off in ${file} ([features] ${key} = false): no hook runs, skilldex's included`,
        fix: `remove "${key} = false" from [features] in ${file} (Codex runs hooks by default)`,
      };
  return undefined;
}

/**
 * Whether Codex has trusted skilldex's hook: Codex runs a non-managed hook only once the person
 * has reviewed and trusted its exact definition in `/hooks`, and skips a new or changed one until
 * then, saying so only at start-up (developers.openai.com/codex/hooks, "Review and trust hooks").
 * It records that trust in `$CODEX_HOME/config.toml` as `[hooks.state."<hooks.json path>:
 * user_prompt_submit:<group>:<handler>"]` with a `trusted_hash` of the definition it trusted
 * (codexHookHash); a definition changed since (another command, timeout or status message) no
 * longer matches, and Codex skips it as "modified" as silently as an untrusted one. Undefined when
 * the trust recorded is for the hook as it is; else the warning with the fix (`enabled = false`
 * there: the person turned the hook off in `/hooks`).
 */
export function codexHookTrust(
  hooksFile: string,
  cmd: string,
): { status: 'warn' | 'fail'; message: string; fix: string } | undefined {
  let groups: unknown;
  try {
    groups = valueAt(readJsonFile(hooksFile), ['hooks', 'UserPromptSubmit']);
  } catch {
    return undefined; // Read (and named) above.
  }
  if (!Array.isArray(groups)) return undefined;
  let key: string | undefined;
  let handler: unknown;
  for (const [g, group] of groups.entries()) {
    const hooks = valueAt(group, ['hooks']);
    if (!Array.isArray(hooks)) continue;
    const h = hooks.findIndex((x) => valueAt(x, ['command']) === cmd);
    if (h >= 0) {
      key = `${hooksFile}:user_prompt_submit:${g}:${h}`;
      handler = hooks[h];
      break;
    }
  }
  if (key === undefined) return undefined;
  const config = path.join(path.dirname(hooksFile), 'config.toml');
  let state: unknown;
  if (existsSync(config)) {
    const r = readTextCapped(config, { maxBytes: 4 * 1024 * 1024 });
    if (!r.ok) return undefined;
    try {
      state = valueAt(parseTomlText(r.text), ['hooks', 'state']);
    } catch {
      return undefined; // A config.toml that does not parse: Codex reports it.
    }
  }
  const entry =
    state !== null && typeof state === 'object'
      ? (state as Record<string, unknown>)[key]
      : undefined;
  const fix =
    "start Codex and open /hooks: review and trust skilldex's UserPromptSubmit hook (once per change of the hook; skilldex init --client codex changes it only when it must)";
  if (valueAt(entry, ['enabled']) === false)
    return {
      status: 'fail',
      message: `skilldex's hook is turned off in Codex (${config} [hooks.state."${key}"] enabled = false)`,
      fix: "start Codex and open /hooks: enable skilldex's UserPromptSubmit hook",
    };
  const trusted = valueAt(entry, ['trusted_hash']);
  if (typeof trusted === 'string') {
    const now = codexHookHash('user_prompt_submit', handler);
    if (now === undefined || now === trusted) return undefined;
    return {
      status: 'warn',
      message: `skilldex's hook changed since Codex trusted it (${config} [hooks.state."${key}"] trusted_hash ${sanitizeField(trusted, 80)}; the hook as it is now hashes to ${now}): Codex skips a modified hook until you trust it again, and says so only at start-up`,
      fix,
    };
  }
  return {
    status: 'warn',
    message: `Codex has recorded no trust for skilldex's hook (no [hooks.state."${key}"] trusted_hash in ${config}): Codex skips a hook until you trust it, and says so only at start-up`,
    fix,
  };
}

/**
 * Codex's `trusted_hash` of one command hook of `event` (its snake-case label, e.g.
 * `user_prompt_submit`): `sha256:` and the hex SHA-256 of the compact JSON, keys sorted, of the
 * hook's normalized identity — `{event_name, hooks: [{async, command, statusMessage?, timeout,
 * type}]}`, the timeout as Codex runs it (600 s when unset, at least 1), no matcher for a prompt
 * event (Codex ignores it there). openai/codex: config/src/fingerprint.rs `version_for_toml` over
 * the `NormalizedHookIdentity` of hooks/src/engine/discovery.rs (as its app-server tests build
 * it); the vector in test/cli/doctor-codex-hooks.test.ts is one a Codex 0.151 install recorded.
 * Undefined for a definition this does not know how Codex normalizes (`commandWindows`, a
 * non-command handler): its recorded trust is then taken as given.
 */
export function codexHookHash(event: string, handler: unknown): string | undefined {
  if (handler === null || typeof handler !== 'object') return undefined;
  const h = handler as Record<string, unknown>;
  if (h['type'] !== 'command' || typeof h['command'] !== 'string') return undefined;
  if (h['commandWindows'] !== undefined || h['command_windows'] !== undefined) return undefined;
  const timeout = h['timeout'];
  if (timeout !== undefined && !(typeof timeout === 'number' && Number.isSafeInteger(timeout)))
    return undefined;
  const status = h['statusMessage'];
  if (status !== undefined && typeof status !== 'string') return undefined;
  // Keys in sorted order (serde_json's output of canonical_json): JSON.stringify keeps insertion
  // order and escapes what serde_json escapes.
  const identity = {
    event_name: event,
    hooks: [
      {
        async: false,
        command: h['command'],
        ...(status !== undefined ? { statusMessage: status } : {}),
        timeout: Math.max(1, (timeout as number | undefined) ?? 600),
        type: 'command',
      },
    ],
  };
  return `sha256:${createHash('sha256').update(JSON.stringify(identity)).digest('hex')}`;
}

/**
 * Why VS Code would not read init's hook file: its user settings set `chat.hookFilesLocations` of
 * `~/.copilot/hooks` (or the file itself) to false — microsoft/vscode-docs
 * docs/agent-customization/hooks.md ("Hook file locations": "Set a path to false to disable loading
 * hooks from that location, including the default locations"). The settings of the default
 * profile, JSON with comments; a file that does not parse is left to VS Code to report.
 */
/**
 * VS Code also runs the hooks of `~/.claude/settings.json` (vscode-docs hooks.md, "Hook file
 * locations": `~/.claude/settings.json` is a default user location): with Claude Code's skilldex
 * hook there too, VS Code asks skilldex twice per prompt, unless its user settings turn that file
 * off in `chat.hookFilesLocations`. The warning, or undefined.
 */
export function vscodeRunsTwice(
  o: DoctorOptions,
  claudeSettings: string | undefined,
): { message: string; fix: string } | undefined {
  if (claudeSettings === undefined || !existsSync(claudeSettings)) return undefined;
  try {
    const groups = valueAt(readJsonFile(claudeSettings), ['hooks', 'UserPromptSubmit']);
    if (!/\bhook claude-code\b/.test(JSON.stringify(groups ?? null))) return undefined;
  } catch {
    return undefined;
  }
  const rel = `~/${path.relative(o.home, claudeSettings)}`;
  if (vscodeLocationsOff(o, [rel]) !== undefined) return undefined;
  return {
    message: `VS Code also runs the hooks of ${claudeSettings}, where Claude Code's skilldex hook is: each VS Code prompt is answered twice`,
    fix: `add "chat.hookFilesLocations": {"${rel}": false} to VS Code's user settings, or skilldex init --undo --client vscode --yes`,
  };
}

// The first of `keys` VS Code's user settings set to false in chat.hookFilesLocations, with the
// settings file.
function vscodeLocationsOff(
  o: DoctorOptions,
  keys: readonly string[],
): { key: string; settings: string } | undefined {
  const config = o.env['XDG_CONFIG_HOME'] || path.join(o.home, '.config');
  const mac = path.join(o.home, 'Library', 'Application Support');
  for (const settings of [config, mac].map((b) => path.join(b, 'Code', 'User', 'settings.json'))) {
    if (!existsSync(settings)) continue;
    let locations: unknown;
    try {
      locations = valueAt(readJsonFile(settings, true), ['chat.hookFilesLocations']);
    } catch {
      continue;
    }
    if (locations === null || typeof locations !== 'object') continue;
    const off = Object.entries(locations).find(([k, v]) => v === false && keys.includes(k));
    if (off) return { key: off[0], settings };
  }
  return undefined;
}

export function vscodeHookOff(
  o: DoctorOptions,
  file: string,
): { message: string; fix: string } | undefined {
  // `chat.useChatHooks` (default true) "controls whether chat hooks are executed" at all
  // (microsoft/vscode, the chat configuration contribution, PromptsConfig.USE_CHAT_HOOKS).
  const config = o.env['XDG_CONFIG_HOME'] || path.join(o.home, '.config');
  const mac = path.join(o.home, 'Library', 'Application Support');
  for (const settings of [config, mac].map((b) => path.join(b, 'Code', 'User', 'settings.json'))) {
    if (!existsSync(settings)) continue;
    try {
      if (valueAt(readJsonFile(settings, true), ['chat.useChatHooks']) === false)
        return {
          message: `VS Code runs no chat hook: "chat.useChatHooks" is false in ${settings}, so skilldex's hook in ${file} never runs`,
          fix: `set "chat.useChatHooks": true in ${settings} (or remove the line: true is the default)`,
        };
    } catch {
      // A settings file that does not parse: left to VS Code to report.
    }
  }
  const rel = path.relative(o.home, file);
  const off = vscodeLocationsOff(o, [
    `~/${path.dirname(rel)}`,
    `~/${path.dirname(rel)}/`,
    `~/${rel}`,
  ]);
  if (off === undefined) return undefined;
  return {
    message: `VS Code does not load ${file}: "chat.hookFilesLocations" sets ${JSON.stringify(off.key)} to false in ${off.settings}`,
    fix: `remove ${JSON.stringify(off.key)}: false from "chat.hookFilesLocations" in ${off.settings}`,
  };
}
