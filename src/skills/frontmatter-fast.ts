/**
 * A fast path for the frontmatter most SKILL.md files have: top-level `key: value` lines whose
 * values are plain strings, quoted strings, flow lists of plain strings, or block lists of them.
 * It returns exactly what the `yaml` parser (core schema, floats kept as text) returns for such
 * text, and `undefined` for anything else — comments after values, multi-line scalars, nested
 * maps, anchors, tags, numbers, booleans, nulls, duplicate keys — so the caller falls back to the
 * full parser, which keeps its limits and positioned errors. A property test holds the two equal.
 *
 * Why: YAML parsing was measured at ~69 % of discovery's warm pipeline while skilldex was designed
 * (bench/results/scan.md times discovery as a whole), and this subset covers nearly every real
 * frontmatter.
 */

// A key: letters, digits, underscores and hyphens, not starting with a hyphen or digit.
const LINE_RE = /^([A-Za-z_][A-Za-z0-9_-]*):(?:[ \t]+(.*?))?[ \t]*$/;
const ITEM_RE = /^(?: {0,4})- (.*?)[ \t]*$/;
// Keys that would touch Object.prototype if assigned naively.
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype', '<<']);
// Plain scalars the core schema resolves to something other than a string (null, bool, int, float).
const CORE_SPECIAL_RE =
  /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/** Parses `yaml` when it lies in the simple subset; undefined otherwise (use the full parser). */
export function parseSimpleFrontmatter(yaml: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  const lines = yaml.split('\n');
  let listKey: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() === '') continue;
    if (line.startsWith('#')) continue;
    if (listKey !== undefined) {
      const item = ITEM_RE.exec(line);
      if (item) {
        const v = scalar(item[1]!);
        if (v === undefined) return undefined;
        (out[listKey] as string[]).push(v);
        continue;
      }
      if ((out[listKey] as string[]).length === 0) return undefined;
      listKey = undefined;
    }
    const m = LINE_RE.exec(line);
    if (!m) return undefined;
    const key = m[1]!;
    if (UNSAFE_KEYS.has(key) || Object.prototype.hasOwnProperty.call(out, key)) return undefined;
    const raw = m[2];
    if (raw === undefined || raw === '') {
      out[key] = [];
      listKey = key;
      continue;
    }
    const v = raw.startsWith('[') ? flowList(raw) : scalar(raw);
    if (v === undefined) return undefined;
    out[key] = v;
  }
  if (listKey !== undefined && (out[listKey] as string[]).length === 0) return undefined;
  // An empty document is null to YAML, not a mapping: the full parser refuses it with its reason.
  return Object.keys(out).length > 0 ? out : undefined;
}

// One scalar value: double-quoted (JSON-compatible), single-quoted, or a plain string.
function scalar(raw: string): string | undefined {
  const c = raw[0];
  if (c === '"') {
    if (raw.length < 2 || !raw.endsWith('"')) return undefined;
    try {
      // YAML's double-quoted escapes include JSON's with the same meaning; anything JSON refuses falls back.
      const v: unknown = JSON.parse(raw);
      return typeof v === 'string' ? v : undefined;
    } catch {
      return undefined;
    }
  }
  if (c === "'") {
    if (raw.length < 2 || !raw.endsWith("'")) return undefined;
    const inner = raw.slice(1, -1);
    if (/'(?!')/.test(inner.replace(/''/g, ''))) return undefined;
    return inner.replace(/''/g, "'");
  }
  return plain(raw);
}

function plain(raw: string): string | undefined {
  if (raw === '' || /^[-?:,[\]{}#&*!|>'"%@`\s]/.test(raw)) return undefined;
  if (raw.includes(': ') || raw.includes(' #') || raw.includes('\t') || raw.endsWith(':'))
    return undefined;
  if (CORE_SPECIAL_RE.test(raw)) return undefined;
  return raw;
}

// A flow list of plain strings: `[a, b c, d-e]`.
function flowList(raw: string): string[] | undefined {
  if (!raw.endsWith(']')) return undefined;
  const inner = raw.slice(1, -1).trim();
  if (inner === '') return [];
  const out: string[] = [];
  for (const part of inner.split(',')) {
    const item = part.trim();
    if (/[[\]{}"']/.test(item) || item.includes(':')) return undefined;
    const v = plain(item);
    if (v === undefined) return undefined;
    out.push(v);
  }
  return out;
}
