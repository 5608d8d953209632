/**
 * Reading and writing one config file: the TOML parser (smol-toml, loaded on first use), the size
 * cap, the read of a regular file (TOML, or JSON for a `.json` file) with its owner, the check of
 * its shape against the known keys (CONFIG_KEYS) with its paths resolved against the file's folder
 * and `~/`, and renderConfig, the TOML `skilldex init` writes.
 */
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as SmolToml from 'smol-toml';
import { SkilldexError } from '../../errors.js';
import { resolveCatalogLocation } from '../../catalog/store/location.js';
import { readTextCapped } from '../../fsx/index.js';
import type { ConfigFile, LintIgnoreRule } from './shape.js';

// smol-toml is loaded only when a config file is read or written, not at every start-up.
/** The TOML parser, loaded on first use. */
export function toml(): typeof SmolToml {
  return createRequire(import.meta.url)('smol-toml') as typeof SmolToml;
}

/** Largest config file read: 1 MiB (a config is a few lines). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** Largest `usage_retention_days`: MAX_USAGE_RETENTION_DAYS of src/catalog/side/usage-write.ts (not loaded at start-up). */
const MAX_RETENTION_DAYS = 36_500;

/** Reads and validates one config file; paths come back absolute. */
export function readConfigFile(file: string, home: string): ConfigFile {
  return readConfig(file, home).config;
}

// One config file, read once as a regular file under the size cap, with its owner.
export function readConfig(file: string, home: string): { config: ConfigFile; uid: number } {
  const r = readTextCapped(file, { maxBytes: MAX_CONFIG_BYTES, label: file });
  if (!r.ok) {
    const code = r.problem.code;
    if (code === 'UNREADABLE' && /ENOENT/.test(r.problem.message))
      throw new SkilldexError('FILE_NOT_FOUND', `config file ${file} does not exist`, { file });
    throw new SkilldexError(
      code === 'UNREADABLE' ? 'FILE_NOT_FOUND' : 'CONFIG_INVALID',
      `cannot read config file ${file}: ${r.problem.message}`,
      { file, problem: code },
    );
  }
  let raw: unknown;
  try {
    raw = file.endsWith('.json') ? JSON.parse(r.text) : toml().parse(r.text);
  } catch (err) {
    throw new SkilldexError(
      'CONFIG_INVALID',
      `${file}: ${(err as Error).message.split('\n')[0]}`,
      { file },
      { cause: err },
    );
  }
  return { config: validateConfig(raw, file, home), uid: r.uid };
}

const TOP_KEYS = [
  'catalog',
  'policy',
  'telemetry',
  'min_confidence',
  'usage_retention_days',
  'hook_server',
  'library',
  'mcp',
  'lint',
  'trust_project_config',
];
const LIBRARY_KEYS = ['scopes', 'prefer'];
const MCP_KEYS = ['cascade_roots', 'substrate', 'host'];
const LINT_KEYS = ['ignore'];
const LINT_IGNORE_KEYS = ['code', 'skills', 'reason'];

/** Every setting key a config file may hold (tables spelled `library.scopes`). */
export const CONFIG_KEYS: readonly string[] = Object.freeze([
  ...TOP_KEYS.filter((k) => k !== 'library' && k !== 'mcp' && k !== 'lint'),
  ...LIBRARY_KEYS.map((k) => `library.${k}`),
  ...MCP_KEYS.map((k) => `mcp.${k}`),
  ...LINT_KEYS.map((k) => `lint.${k}`),
]);

/** Checks the shape of a parsed config and resolves its paths against the file's folder. */
export function validateConfig(raw: unknown, file: string, home: string): ConfigFile {
  const bad = (key: string, what: string): SkilldexError =>
    new SkilldexError('CONFIG_INVALID', `${file}: ${key} ${what}`, { file, key });
  const table = (v: unknown, key: string, keys: readonly string[]): Record<string, unknown> => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw bad(key, 'must be a table');
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o))
      if (!keys.includes(k))
        throw bad(key === '' ? k : `${key}.${k}`, `is not a known key (known: ${keys.join(', ')})`);
    return o;
  };
  const dir = path.dirname(file);
  const resolvePath = (p: string): string =>
    p === '~' ? home : p.startsWith('~/') ? path.join(home, p.slice(2)) : path.resolve(dir, p);
  const str = (v: unknown, key: string): string => {
    if (typeof v !== 'string' || v.length === 0) throw bad(key, 'must be a non-empty string');
    return v;
  };
  const paths = (v: unknown, key: string): string[] => {
    if (!Array.isArray(v)) throw bad(key, 'must be an array of paths');
    return v.map((e, i) => resolvePath(str(e, `${key}[${i}]`)));
  };
  const top = table(raw, '', TOP_KEYS);
  const out: { -readonly [K in keyof ConfigFile]: ConfigFile[K] } = {};
  if (top['catalog'] !== undefined) {
    const c = str(top['catalog'], 'catalog');
    // A postgres:// URL keeps its text, its password masked; a path is resolved like every path here.
    try {
      out.catalog = resolveCatalogLocation(c.startsWith('~') ? resolvePath(c) : c, dir);
    } catch {
      throw bad('catalog', 'must be a file path or a postgres:// URL (it starts like another URL)');
    }
  }
  if (top['policy'] !== undefined) out.policy = str(top['policy'], 'policy');
  if (top['trust_project_config'] !== undefined)
    out.trust_project_config = paths(top['trust_project_config'], 'trust_project_config');
  if (top['telemetry'] !== undefined) {
    if (typeof top['telemetry'] !== 'boolean') throw bad('telemetry', 'must be true or false');
    out.telemetry = top['telemetry'];
  }
  if (top['min_confidence'] !== undefined) {
    const v = top['min_confidence'];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1)
      throw bad('min_confidence', 'must be a number from 0 to 1');
    out.min_confidence = v;
  }
  if (top['usage_retention_days'] !== undefined) {
    const v = top['usage_retention_days'];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_RETENTION_DAYS)
      throw bad(
        'usage_retention_days',
        `must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}`,
      );
    out.usage_retention_days = v;
  }
  if (top['hook_server'] !== undefined) {
    if (typeof top['hook_server'] !== 'boolean') throw bad('hook_server', 'must be true or false');
    out.hook_server = top['hook_server'];
  }
  if (top['library'] !== undefined) {
    const lib = table(top['library'], 'library', LIBRARY_KEYS);
    out.library = {
      ...(lib['scopes'] !== undefined ? { scopes: paths(lib['scopes'], 'library.scopes') } : {}),
      ...(lib['prefer'] !== undefined ? { prefer: paths(lib['prefer'], 'library.prefer') } : {}),
    };
  }
  if (top['mcp'] !== undefined) {
    const m = table(top['mcp'], 'mcp', MCP_KEYS);
    out.mcp = {
      ...(m['cascade_roots'] !== undefined
        ? { cascade_roots: paths(m['cascade_roots'], 'mcp.cascade_roots') }
        : {}),
      ...(m['substrate'] !== undefined
        ? { substrate: resolvePath(str(m['substrate'], 'mcp.substrate')) }
        : {}),
      ...(m['host'] !== undefined ? { host: str(m['host'], 'mcp.host') } : {}),
    };
  }
  if (top['lint'] !== undefined)
    out.lint = lintTable(table(top['lint'], 'lint', LINT_KEYS), table, str, bad);
  return out;
}

// The [lint] table: `ignore` is an array of { code, skills?, reason? } (skills a glob or a list).
function lintTable(
  lint: Record<string, unknown>,
  table: (v: unknown, key: string, keys: readonly string[]) => Record<string, unknown>,
  str: (v: unknown, key: string) => string,
  bad: (key: string, what: string) => SkilldexError,
): NonNullable<ConfigFile['lint']> {
  if (lint['ignore'] === undefined) return {};
  if (!Array.isArray(lint['ignore'])) throw bad('lint.ignore', 'must be an array of tables');
  const ignore = lint['ignore'].map((e, i): LintIgnoreRule => {
    const key = `lint.ignore[${i}]`;
    const r = table(e, key, LINT_IGNORE_KEYS);
    const skills = r['skills'];
    let list: string[] | undefined;
    if (typeof skills === 'string') list = [str(skills, `${key}.skills`)];
    else if (Array.isArray(skills)) list = skills.map((g, j) => str(g, `${key}.skills[${j}]`));
    else if (skills !== undefined)
      throw bad(`${key}.skills`, 'must be a glob or an array of globs');
    return {
      code: str(r['code'], `${key}.code`),
      ...(list !== undefined ? { skills: list } : {}),
      ...(r['reason'] !== undefined ? { reason: str(r['reason'], `${key}.reason`) } : {}),
    };
  });
  return { ignore };
}

/** Renders a config as TOML (what `skilldex init` writes). */
export function renderConfig(config: ConfigFile): string {
  const header =
    '# skilldex configuration (written by skilldex init; see skilldex config --help).\n';
  return header + toml().stringify(config as Record<string, unknown>) + '\n';
}
