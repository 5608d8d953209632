/**
 * Human renderings of `diff`, `lock` and `verify` (issue #28). Every value a skill author controls
 * — ids, paths, frontmatter values, body lines — goes through the one sanitiser (src/text/sanitize.ts):
 * terminal controls and invisible characters escaped, fields capped, body lines escaped as a block
 * line (tabs kept, a lone carriage return shown as `\r`). `--json` prints the reports themselves.
 */
import type {
  DiffSide,
  GenerationDiffReport,
  LockReport,
  SkillDiffReport,
  VerifyReport,
} from '../../internal.js';
import { renderUnified, sanitizeBlock, sanitizeField } from '../../text/index.js';

/** Short form of a `sha256:` id: its first 12 hex digits. */
export function shortId(id: string | null): string {
  return id === null ? '(none)' : id.replace(/^sha256:/, '').slice(0, 12);
}

function sideLabel(s: DiffSide): string {
  const where =
    s.kind === 'generation'
      ? `generation ${s.seq}`
      : s.kind === 'working'
        ? 'working set'
        : `revision ${shortId(s.revision_id)}`;
  if (s.revision_id === null) return `${where} (absent)`;
  const version = s.version !== null ? ` v${sanitizeField(s.version, 64)}` : '';
  return s.kind === 'revision'
    ? `${where}${version}`
    : `${where}: revision ${shortId(s.revision_id)}${version}${s.state !== null && s.state !== 'active' ? ` [${s.state}]` : ''}`;
}

function value(v: unknown): string {
  return sanitizeField(JSON.stringify(v) ?? 'undefined', 400);
}

/** Human rendering of a skill diff. */
export function renderSkillDiff(r: SkillDiffReport): string {
  const id = sanitizeField(r.skill_id);
  const lines = [`diff ${id}: ${sideLabel(r.from)} → ${sideLabel(r.to)}`];
  if (r.identical) {
    lines.push('  identical in the catalog: same revision, supporting files and state');
    lines.push(...renderDisk(r.disk));
    return lines.join('\n');
  }
  if (r.from.state !== r.to.state)
    lines.push(`state: ${r.from.state ?? '(absent)'} → ${r.to.state ?? '(absent)'}`);
  lines.push(r.frontmatter.length === 0 ? 'frontmatter: unchanged' : 'frontmatter:');
  for (const f of r.frontmatter) {
    const name = sanitizeField(f.field, 80);
    if (f.change === 'added') lines.push(`  + ${name}: ${value(f.to)}`);
    else if (f.change === 'removed') lines.push(`  - ${name}: ${value(f.from)}`);
    else lines.push(`  ~ ${name}: ${value(f.from)} → ${value(f.to)}`);
  }
  const b = r.body;
  if (b.status === 'unavailable')
    lines.push(`body: not compared: ${sanitizeField(b.reason ?? '')}`);
  else if (b.status === 'same') lines.push('body: unchanged');
  else {
    lines.push(`body: ${b.removed_lines} line(s) removed, ${b.added_lines} added`);
    const text = renderUnified(
      b.hunks,
      `${id}@${shortId(r.from.revision_id)}`,
      `${id}@${shortId(r.to.revision_id)}`,
    );
    for (const l of text.split('\n')) lines.push(sanitizeBlock(l));
  }
  const f = r.files;
  lines.push(
    f.changes.length === 0
      ? 'supporting files: unchanged'
      : `supporting files: ${f.changes.length} changed`,
  );
  for (const c of f.changes) {
    const p = sanitizeField(c.path, 400);
    if (c.change === 'added') lines.push(`  + ${p}  ${shortId(c.to_digest ?? null)}`);
    else if (c.change === 'removed') lines.push(`  - ${p}  ${shortId(c.from_digest ?? null)}`);
    else
      lines.push(`  ~ ${p}  ${shortId(c.from_digest ?? null)} → ${shortId(c.to_digest ?? null)}`);
  }
  if (f.truncated) lines.push('  (a listing was cut at a bound: files past it are not compared)');
  lines.push(...renderDisk(r.disk));
  return lines.join('\n');
}

// The folder on disk against the catalog's working set (issue 35): what the catalog has not seen.
function renderDisk(d: SkillDiffReport['disk']): string[] {
  const where = d.path !== null ? sanitizeField(d.path, 400) : '';
  switch (d.status) {
    case 'same':
      return [`on disk: as the catalog's working set has it (${where})`];
    case 'unknown':
      return ['on disk: not compared (the catalog recorded no path for the skill)'];
    case 'missing':
      return [`on disk: ${where} is gone: the disk differs from the catalog (run skilldex index)`];
    case 'unreadable':
      return [
        `on disk: ${where} cannot be read (${sanitizeField(d.reason ?? '', 400)}): the disk differs from the catalog`,
      ];
    case 'differs': {
      const out = [
        `on disk: the disk differs from the catalog's working set: ${d.changes.length} file(s) (run skilldex index --no-publish, then diff again to see the text)`,
      ];
      for (const c of d.changes) {
        const p = sanitizeField(c.path, 400);
        if (c.change === 'added') out.push(`  + ${p}  ${shortId(c.disk_digest ?? null)}`);
        else if (c.change === 'removed') out.push(`  - ${p}  ${shortId(c.catalog_digest ?? null)}`);
        else
          out.push(
            `  ~ ${p}  ${shortId(c.catalog_digest ?? null)} → ${shortId(c.disk_digest ?? null)}`,
          );
      }
      return out;
    }
  }
}

/** Human rendering of a generation comparison. */
export function renderGenerationDiff(r: GenerationDiffReport): string {
  const label = (g: GenerationDiffReport['from']): string =>
    g === 'working' ? 'working set' : `generation ${g.seq} (${shortId(g.catalog_generation)})`;
  const c = r.counts;
  const lines = [
    `diff ${label(r.from)} → ${label(r.to)}: ${c.added} added, ${c.removed} removed, ${c.changed} changed, ${c.unchanged} unchanged`,
  ];
  for (const a of r.added)
    lines.push(`  + ${sanitizeField(a.skill_id)}  ${shortId(a.revision_id)}${stateOf(a.state)}`);
  for (const a of r.removed)
    lines.push(`  - ${sanitizeField(a.skill_id)}  ${shortId(a.revision_id)}${stateOf(a.state)}`);
  for (const x of r.changed) {
    const what = [
      x.revision_changed
        ? `revision ${shortId(x.from_revision_id)} → ${shortId(x.revision_id)}`
        : '',
      x.files_changed ? 'supporting files' : '',
      x.state_changed ? `state ${x.from_state} → ${x.state}` : '',
    ].filter((w) => w !== '');
    lines.push(`  ~ ${sanitizeField(x.skill_id)}  ${what.join('; ')}`);
  }
  return lines.join('\n');
}

function stateOf(state: string): string {
  return state === 'active' ? '' : ` [${state}]`;
}

/** Human rendering of `lock`: where it went, whether its bytes changed, what was left out. */
export function renderLock(r: LockReport, where: string, changed: boolean): string {
  const lines = [
    `locked ${r.skills} skill(s) into ${sanitizeField(where)}${changed ? '' : ' (unchanged: same bytes as before)'}`,
  ];
  for (const k of r.skipped)
    lines.push(`  not locked ${k.code}: ${sanitizeField(k.path)}: ${sanitizeField(k.reason)}`);
  for (const s of r.shadowed)
    lines.push(
      `  not locked (shadowed by ${sanitizeField(s.winner)}): ${sanitizeField(s.shadowed)}`,
    );
  return lines.join('\n');
}

// A verified entry: a file's short digest, else what the lock's `unlisted` says it is (a link's
// target, `dir`, `special`), sanitised: a link target is attacker-chosen text.
function entryKind(d: string | undefined): string {
  if (d === undefined || d.startsWith('sha256:')) return shortId(d ?? null);
  return sanitizeField(d, 400);
}

/** Human rendering of `verify`: one block per finding, then the summary line (last, for CI logs). */
export function renderVerify(r: VerifyReport): string {
  const lines: string[] = [];
  for (const f of r.findings) {
    const where = f.folder ?? f.locked_folder;
    lines.push(
      `${f.code} ${sanitizeField(f.skill_id)}${where !== null ? `  ${sanitizeField(where, 400)}` : ''}`,
    );
    if (f.code === 'SKILL_MOVED')
      lines.push(`  moved from ${sanitizeField(f.locked_folder ?? '?', 400)}`);
    for (const c of f.files ?? []) {
      const mark = c.change === 'added' ? '+' : c.change === 'removed' ? '-' : '~';
      const digests =
        c.change === 'changed'
          ? `${entryKind(c.locked_digest)} → ${entryKind(c.digest)}`
          : entryKind(c.digest ?? c.locked_digest);
      lines.push(`  ${mark} ${sanitizeField(c.path, 400)}  ${digests}`);
    }
    // Findings whose message is the explanation: the parse error, why a hash match is no pass.
    if (
      (f.code === 'SKILL_CHANGED' && f.files === undefined) ||
      f.code === 'SKILL_UNREADABLE' ||
      f.code === 'HASH_AMBIGUOUS'
    )
      lines.push(`  ${sanitizeField(f.message, 600)}`);
  }
  for (const k of r.skipped)
    lines.push(`not verifiable (${k.code}): ${sanitizeField(k.path, 400)}`);
  lines.push(r.summary);
  return lines.join('\n');
}
