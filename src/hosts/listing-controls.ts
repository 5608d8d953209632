/**
 * `skilldex listing --apply` and `--undo` (issue 23 §2): write a listing plan into the host's own
 * settings — never into anyone's SKILL.md or skill folder — and take it back.
 *
 * Claude Code: `skillOverrides` in the user's `~/.claude/settings.json`, each routed skill set to
 * `user-invocable-only` (out of the model's listing, still `/name` for the user; values and
 * precedence: code.claude.com/docs/en/settings, `skillOverrides`). Plugin skills are not affected
 * by overrides, so the plan never names them. Every other key of the file is kept.
 * Codex: `[[skills.config]]` entries with the routed skill's `path` and `enabled = false` appended
 * to `$CODEX_HOME/config.toml` between two marker comments (openai/codex config_rules.rs; a
 * disabled skill also leaves `$name` mentions: the router reaches it). `agents/openai.yaml`'s
 * `allow_implicit_invocation` would be the per-skill alternative, but it lives in the skill's own
 * folder, so it is not written.
 *
 * Each apply first takes back the previous one, copies the file as it was into the state folder,
 * and records what it wrote. `--undo` restores each override whose value is still the one written
 * (a value changed since is the user's and stays), or removes the marked block; a file skilldex
 * created and that holds nothing else is removed. Every file written is parsed back before it
 * replaces the old one; a file that cannot be parsed is refused with CONFIG_INVALID, untouched.
 */
import { chmodSync, existsSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { SkilldexError, assertKnownOptions, optionKeys } from '../errors.js';
import { readTextCapped, sha256Hex, writeInside, xdgBaseDir } from '../fsx/index.js';
import { codexConfigFile } from './listing-codex.js';
import type { ListingHost } from './listing-rules.js';
import { MAX_SETTINGS_BYTES } from './listing-scopes.js';

/** The override value a routed Claude Code skill gets by default (out of the model's listing). */
export const ROUTED_OVERRIDE = 'user-invocable-only';
/** The override values `listing --apply` writes: out of the model's listing, or listed by name. */
export type RoutedOverride = typeof ROUTED_OVERRIDE | 'name-only';

/**
 * A byte-preserving editor of JSON text (the CLI passes init's, src/cli/init/json-edit.ts, which
 * this layer cannot import): `set` replaces or adds `key` in the object at `path` (objects on the
 * path created), `remove` takes the member at `path` out (undefined: no such member). Without one,
 * the file is written back as `JSON.stringify(…, null, 2)`.
 */
export interface JsonTextEditor {
  set(text: string, path: readonly string[], key: string, value: unknown): string;
  remove(text: string, path: readonly string[]): string | undefined;
}

/** What an apply writes besides the routed skills. */
export interface ApplyExtras {
  /** Claude Code: the override value of routed skills (default ROUTED_OVERRIDE). */
  readonly value?: RoutedOverride;
  /** Claude Code: a `skillListingBudgetFraction` to write (the user asked for it). */
  readonly budgetFraction?: number;
  readonly editor?: JsonTextEditor;
}
/** The marker comments around the block skilldex appends to Codex's config.toml. */
export const CODEX_BEGIN =
  '# >>> skilldex listing: skills left to the skilldex router (skilldex listing --undo removes this block)';
export const CODEX_END = '# <<< skilldex listing';

/** What an apply records (the state file), so undo knows what is skilldex's. */
export interface ListingState {
  readonly host: ListingHost;
  readonly file: string;
  readonly applied_at: string;
  /** True when the file did not exist before the first apply. */
  readonly created_file: boolean;
  /** The copy of the file as it was before this apply (null when there was none). */
  readonly backup: string | null;
  /**
   * Claude Code: the overrides written that take a skill out of the model's listing
   * (`user-invocable-only`) — the skills the prompt hook loads with `skill_fetch` (src/hook/suggest.ts
   * reads this) — and the values they replaced (`previous`, null: none).
   */
  readonly written?: Readonly<Record<string, string>>;
  /** Claude Code: the `name-only` overrides written (the skill stays loadable by the model itself). */
  readonly listed_by_name?: Readonly<Record<string, string>>;
  readonly previous?: Readonly<Record<string, string | null>>;
  /** Codex: the SKILL.md paths disabled. */
  readonly paths?: readonly string[];
  /** sha256 of the text the apply wrote: undo restores the backup exactly while the file still holds it. */
  readonly written_sha256?: string;
  /** Claude Code: the `skillListingBudgetFraction` written and the value it replaced (null: none). */
  readonly budget_fraction?: { readonly written: number; readonly previous: unknown };
}

/** What an apply or undo did. */
export interface ListingControlReport {
  readonly host: ListingHost;
  readonly action: 'apply' | 'undo';
  readonly file: string;
  /** Skills whose control was set (apply) or taken back (undo). */
  readonly changed: readonly string[];
  /** Undo: overrides changed since the apply, left as they are. */
  readonly kept: readonly string[];
  readonly backup: string | null;
  readonly state: string;
  /** Undo: false when there was nothing to take back. */
  readonly done: boolean;
}

/**
 * Where skilldex keeps its listing state: `$XDG_DATA_HOME/skilldex/listing` (an empty value counts as
 * unset, as the XDG rule says), else `~/.local/share/…`.
 */
export function listingStateDir(
  home: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  return path.join(xdgBaseDir('XDG_DATA_HOME', env, home), 'skilldex', 'listing');
}

/** The file a host's controls go to. */
export function controlFile(
  host: ListingHost,
  home: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  return host === 'codex'
    ? codexConfigFile({ home, env })
    : path.join(home, '.claude', 'settings.json');
}

/** The state of the last apply, or undefined. */
export function readListingState(dir: string, host: ListingHost): ListingState | undefined {
  const file = path.join(dir, `${host}.json`);
  if (!existsSync(file)) return undefined;
  const r = readTextCapped(file, { maxBytes: MAX_SETTINGS_BYTES });
  try {
    if (!r.ok) throw new Error(r.problem.message);
    return JSON.parse(r.text) as ListingState;
  } catch (err) {
    throw new SkilldexError('CONFIG_INVALID', `${file}: ${(err as Error).message}`, { file });
  }
}

function readText(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  const r = readTextCapped(file, { maxBytes: MAX_SETTINGS_BYTES });
  if (!r.ok) throw new SkilldexError('CONFIG_INVALID', `${file}: ${r.problem.message}`, { file });
  return r.text;
}

// Writes `text` to `file` atomically, keeping the old file's permissions (settings may hold secrets).
function writeKeepingMode(file: string, text: string): void {
  const mode = existsSync(file) ? statSync(file).mode & 0o777 : undefined;
  writeInside(path.dirname(file), path.basename(file), text);
  if (mode !== undefined) chmodSync(file, mode);
}

function parseSettings(file: string, text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  try {
    const v = JSON.parse(text) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    throw new Error('not a JSON object');
  } catch (err) {
    throw new SkilldexError('CONFIG_INVALID', `${file}: ${(err as Error).message}; not changed`, {
      file,
    });
  }
}

function overridesOf(file: string, settings: Record<string, unknown>): Record<string, unknown> {
  const ov = settings['skillOverrides'];
  if (ov === undefined) return {};
  if (ov && typeof ov === 'object' && !Array.isArray(ov))
    return { ...(ov as Record<string, unknown>) };
  throw new SkilldexError(
    'CONFIG_INVALID',
    `${file}: skillOverrides is not an object; not changed`,
    {
      file,
      key: 'skillOverrides',
    },
  );
}

/** Every override an apply wrote (out of the listing, and by name only). */
export function controlsOf(state: ListingState | undefined): Record<string, string> {
  return { ...(state?.written ?? {}), ...(state?.listed_by_name ?? {}) };
}

// Takes a previous apply's overrides back out of `ov`; returns the ids restored and those kept.
function revertOverrides(
  ov: Record<string, unknown>,
  state: ListingState | undefined,
): { changed: string[]; kept: string[] } {
  const changed: string[] = [];
  const kept: string[] = [];
  for (const [id, value] of Object.entries(controlsOf(state))) {
    if (ov[id] !== value) {
      kept.push(id);
      continue;
    }
    const prev = state?.previous?.[id] ?? null;
    if (prev === null) delete ov[id];
    else ov[id] = prev;
    changed.push(id);
  }
  return { changed: changed.sort(), kept: kept.sort() };
}

function stamp(now: Date): string {
  return now.toISOString().replace(/[:.]/g, '-');
}

function backupOf(
  stateDir: string,
  host: ListingHost,
  file: string,
  text: string | undefined,
  now: Date,
): string | null {
  if (text === undefined) return null;
  const name = `${host}-${stamp(now)}-${path.basename(file)}.bak`;
  writeInside(stateDir, name, text);
  chmodSync(path.join(stateDir, name), 0o600);
  return path.join(stateDir, name);
}

/** Options of apply and undo. */
export interface ListingControlOptions {
  readonly host: ListingHost;
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now?: () => Date;
}

/** Writes the plan's controls: route `routed` (Claude Code: ids; Codex: SKILL.md paths). */
export function applyListing(
  o: ListingControlOptions,
  routed: readonly string[],
  extras: ApplyExtras = {},
): ListingControlReport {
  assertKnownOptions(o, APPLY_LISTING_OPTION_KEYS, 'applyListing');
  return o.host === 'codex' ? applyCodex(o, routed) : applyClaude(o, routed, extras);
}

/** Takes the last apply back: the file exactly as it was while it still holds what the apply wrote. */
export function undoListing(
  o: ListingControlOptions,
  editor?: JsonTextEditor,
): ListingControlReport {
  assertKnownOptions(o, UNDO_LISTING_OPTION_KEYS, 'undoListing');
  return o.host === 'codex' ? undoCodex(o) : undoClaude(o, editor);
}

/**
 * The file as it would be without the last apply, when it still holds exactly what that apply
 * wrote: the backup's text (undefined text with `created`: there was no file). Undefined otherwise.
 */
function exactBefore(
  text: string | undefined,
  state: ListingState | undefined,
): { text: string | undefined } | undefined {
  if (!state || text === undefined || state.written_sha256 !== sha256Hex(text)) return undefined;
  if (state.backup === null) return state.created_file ? { text: undefined } : undefined;
  const b = readText(state.backup);
  return b === undefined ? undefined : { text: b };
}

function writeState(dir: string, state: ListingState): string {
  writeInside(dir, `${state.host}.json`, JSON.stringify(state, null, 2) + '\n');
  return path.join(dir, `${state.host}.json`);
}

/**
 * Writes an apply: a backup of the host's file as it was (`w.text`), the file itself (`out`, its
 * mode kept), then the state that undo reads (`extra`: what was written over what). Returns the
 * apply's report (`changed`: what it routed).
 */
function commitApply(
  host: ListingState['host'],
  w: ApplyStart,
  base: { text: string | undefined; created: boolean },
  out: string,
  changed: string[],
  extra: Pick<
    ListingState,
    'written' | 'listed_by_name' | 'previous' | 'paths' | 'budget_fraction'
  >,
): ListingControlReport {
  const { dir, file, now } = w;
  const backup = backupOf(dir, host, file, base.text, now);
  writeKeepingMode(file, out);
  const state = writeState(dir, {
    host,
    file,
    applied_at: now.toISOString(),
    created_file: base.created,
    backup,
    written_sha256: sha256Hex(out),
    ...extra,
  });
  return { host, action: 'apply', file, changed, kept: [], backup, state, done: true };
}

/** The report of an undo with no apply to take back. */
function nothingToUndo(host: ListingHost, file: string, stateFile: string): ListingControlReport {
  return {
    host,
    action: 'undo',
    file,
    changed: [],
    kept: [],
    backup: null,
    state: stateFile,
    done: false,
  };
}

/** What an apply starts from: the time, the state folder, the host's file and text, the last apply. */
interface ApplyStart {
  readonly now: Date;
  readonly dir: string;
  readonly file: string;
  readonly text: string | undefined;
  readonly before: ListingState | undefined;
}

function applyStart(o: ListingControlOptions, host: ListingHost): ApplyStart {
  const now = (o.now ?? (() => new Date()))();
  const dir = listingStateDir(o.home, o.env);
  const file = controlFile(host, o.home, o.env);
  const before = readState(dir, host);
  return { now, dir, file, text: readText(file), before };
}

function applyClaude(
  o: ListingControlOptions,
  routed: readonly string[],
  x: ApplyExtras,
): ListingControlReport {
  const start = applyStart(o, 'claude-code');
  const { file, before } = start;
  // The file without the last apply: exactly as it was while it holds what that apply wrote, else
  // that apply's controls taken back one by one (values changed since are the user's and stay).
  const exact = exactBefore(start.text, before);
  const base = exact
    ? { text: exact.text, created: before!.created_file }
    : before && start.text !== undefined
      ? {
          text: revertClaude(file, start.text, before, x.editor).text,
          created: before.created_file,
        }
      : { text: start.text, created: before?.created_file ?? start.text === undefined };
  const settings = parseSettings(file, base.text);
  const ov = overridesOf(file, settings);
  const value = x.value ?? ROUTED_OVERRIDE;
  const written: Record<string, string> = {};
  const previous: Record<string, string | null> = {};
  for (const id of [...routed].sort()) {
    const cur = ov[id];
    previous[id] = typeof cur === 'string' ? cur : null;
    ov[id] = value;
    written[id] = value;
  }
  const fraction =
    x.budgetFraction === undefined
      ? undefined
      : { written: x.budgetFraction, previous: settings['skillListingBudgetFraction'] ?? null };
  let out: string;
  if (x.editor && base.text !== undefined) {
    let t = base.text;
    try {
      for (const id of Object.keys(written)) t = x.editor.set(t, ['skillOverrides'], id, value);
      if (fraction) t = x.editor.set(t, [], 'skillListingBudgetFraction', fraction.written);
    } catch (err) {
      throw new SkilldexError('CONFIG_INVALID', `${file}: ${(err as Error).message}; not changed`, {
        file,
      });
    }
    out = t;
  } else {
    const next = { ...settings };
    if (Object.keys(ov).length > 0) next['skillOverrides'] = ov;
    else delete next['skillOverrides'];
    if (fraction) next['skillListingBudgetFraction'] = fraction.written;
    out = JSON.stringify(next, null, 2) + '\n';
  }
  JSON.parse(out);
  return commitApply('claude-code', start, base, out, Object.keys(written), {
    // The hook reads `written` as the skills taken out of the listing: name-only ones are not.
    ...(value === 'name-only' ? { written: {}, listed_by_name: written } : { written }),
    previous,
    ...(fraction ? { budget_fraction: fraction } : {}),
  });
}

/**
 * `text` with the controls of `state` taken back one by one: each override still holding the
 * value written gets the value it replaced (or goes); so does the budget fraction. Byte-preserving
 * with `editor`; an emptied `skillOverrides` goes too.
 */
function revertClaude(
  file: string,
  text: string,
  state: ListingState,
  editor: JsonTextEditor | undefined,
): { text: string; changed: string[]; kept: string[] } {
  const settings = parseSettings(file, text);
  const ov = overridesOf(file, settings);
  const { changed, kept } = revertOverrides(ov, state);
  const bf = state.budget_fraction;
  const fractionBack = bf !== undefined && settings['skillListingBudgetFraction'] === bf.written;
  if (editor) {
    let t = text;
    try {
      for (const id of changed) {
        const prev = state.previous?.[id] ?? null;
        t =
          prev === null
            ? (editor.remove(t, ['skillOverrides', id]) ?? t)
            : editor.set(t, ['skillOverrides'], id, prev);
      }
      if (Object.keys(ov).length === 0) t = editor.remove(t, ['skillOverrides']) ?? t;
      if (fractionBack)
        t =
          bf.previous === null
            ? (editor.remove(t, ['skillListingBudgetFraction']) ?? t)
            : editor.set(t, [], 'skillListingBudgetFraction', bf.previous);
    } catch (err) {
      throw new SkilldexError('CONFIG_INVALID', `${file}: ${(err as Error).message}; not changed`, {
        file,
      });
    }
    return { text: t, changed, kept };
  }
  const next = { ...settings };
  if (Object.keys(ov).length > 0) next['skillOverrides'] = ov;
  else delete next['skillOverrides'];
  if (fractionBack) {
    if (bf.previous === null) delete next['skillListingBudgetFraction'];
    else next['skillListingBudgetFraction'] = bf.previous;
  }
  return { text: JSON.stringify(next, null, 2) + '\n', changed, kept };
}

function readState(dir: string, host: ListingHost): ListingState | undefined {
  return readListingState(dir, host);
}

function undoClaude(o: ListingControlOptions, editor?: JsonTextEditor): ListingControlReport {
  const dir = listingStateDir(o.home, o.env);
  const file = controlFile('claude-code', o.home, o.env);
  const state = readState(dir, 'claude-code');
  const stateFile = path.join(dir, 'claude-code.json');
  if (!state) return nothingToUndo('claude-code', file, stateFile);
  const text = readText(state.file);
  const exact = exactBefore(text, state);
  let changed: string[];
  let kept: string[] = [];
  if (exact) {
    // The file still holds exactly what the apply wrote: put back every byte it had.
    if (exact.text === undefined) rmSync(state.file, { force: true });
    else writeKeepingMode(state.file, exact.text);
    changed = Object.keys(controlsOf(state)).sort();
  } else if (text !== undefined) {
    const r = revertClaude(state.file, text, state, editor);
    ({ changed, kept } = r);
    const left = parseSettings(state.file, r.text);
    if (state.created_file && Object.keys(left).length === 0) rmSync(state.file, { force: true });
    else writeKeepingMode(state.file, r.text);
  } else {
    changed = [];
    kept = Object.keys(controlsOf(state)).sort();
  }
  rmSync(stateFile, { force: true });
  return {
    host: 'claude-code',
    action: 'undo',
    file: state.file,
    changed,
    kept,
    backup: state.backup,
    state: stateFile,
    done: true,
  };
}

// The config text without skilldex's marked block (and the blank line before it).
function withoutBlock(text: string): { text: string; removed: boolean } {
  const begin = text.indexOf(CODEX_BEGIN);
  if (begin < 0) return { text, removed: false };
  const endAt = text.indexOf(CODEX_END, begin);
  if (endAt < 0) return { text, removed: false };
  const after = text.indexOf('\n', endAt);
  const stop = after < 0 ? text.length : after + 1;
  const start =
    begin > 0 && text[begin - 1] === '\n' && text[begin - 2] === '\n' ? begin - 1 : begin;
  return { text: text.slice(0, start) + text.slice(stop), removed: true };
}

function parseToml(file: string, text: string): void {
  try {
    (createRequire(import.meta.url)('smol-toml') as { parse(s: string): unknown }).parse(text);
  } catch (err) {
    throw new SkilldexError(
      'CONFIG_INVALID',
      `${file}: the result would not parse as TOML (${(err as Error).message.split('\n')[0]}); not changed — a [skills] table written inline cannot take [[skills.config]] entries`,
      { file },
    );
  }
}

function applyCodex(o: ListingControlOptions, routed: readonly string[]): ListingControlReport {
  const start = applyStart(o, 'codex');
  const { file, text } = start;
  if (text !== undefined) parseToml(file, text);
  const exact = exactBefore(text, start.before);
  const baseText = exact ? exact.text : text === undefined ? undefined : withoutBlock(text).text;
  const created = start.before?.created_file ?? text === undefined;
  const base = withoutBlock(baseText ?? '').text;
  const paths = [...routed].sort();
  const block =
    paths.length === 0
      ? ''
      : [
          CODEX_BEGIN,
          ...paths.flatMap((p) => [
            '[[skills.config]]',
            `path = ${JSON.stringify(p)}`,
            'enabled = false',
            '',
          ]),
          CODEX_END,
          '',
        ].join('\n');
  const out =
    block === ''
      ? base
      : (base === '' || base.endsWith('\n\n')
          ? base
          : base.endsWith('\n')
            ? base + '\n'
            : base + '\n\n') + block;
  parseToml(file, out);
  return commitApply('codex', start, { text: baseText, created }, out, paths, { paths });
}

function undoCodex(o: ListingControlOptions): ListingControlReport {
  const dir = listingStateDir(o.home, o.env);
  const stateFile = path.join(dir, 'codex.json');
  const state = readState(dir, 'codex');
  const file = state?.file ?? controlFile('codex', o.home, o.env);
  if (!state) return nothingToUndo('codex', file, stateFile);
  const text = readText(file);
  const exact = exactBefore(text, state);
  if (exact) {
    if (exact.text === undefined) rmSync(file, { force: true });
    else writeKeepingMode(file, exact.text);
    rmSync(stateFile, { force: true });
    return {
      host: 'codex',
      action: 'undo',
      file,
      changed: [...(state.paths ?? [])],
      kept: [],
      backup: state.backup,
      state: stateFile,
      done: true,
    };
  }
  const { text: out, removed } = withoutBlock(text ?? '');
  if (removed) {
    parseToml(file, out);
    if (state.created_file && out.trim() === '') rmSync(file, { force: true });
    else writeKeepingMode(file, out);
  }
  rmSync(stateFile, { force: true });
  return {
    host: 'codex',
    action: 'undo',
    file,
    changed: removed ? [...(state.paths ?? [])] : [],
    kept: removed ? [] : [...(state.paths ?? [])],
    backup: state.backup,
    state: stateFile,
    done: true,
  };
}

/** The keys `applyListing` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const APPLY_LISTING_OPTION_KEYS = optionKeys<NonNullable<Parameters<typeof applyListing>[0]>>()(
  'host',
  'home',
  'env',
  'now',
);

/** The keys `undoListing` accepts; any other is INVALID_ARGUMENT (issue 33 item 8). */
const UNDO_LISTING_OPTION_KEYS = optionKeys<NonNullable<Parameters<typeof undoListing>[0]>>()(
  'host',
  'home',
  'env',
  'now',
);
