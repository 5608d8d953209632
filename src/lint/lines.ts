/**
 * Where a frontmatter field sits in a SKILL.md: the 1-based line of its top-level `key:` between
 * the opening and closing `---` fences. Pure; used to put findings on the lines editors and code
 * scanning show. A field written in a flow mapping or not found gives `undefined`.
 */

/** Line numbers of the top-level frontmatter keys of `text` (first occurrence of each key). */
export function frontmatterLines(text: string): ReadonlyMap<string, number> {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const out = new Map<string, number>();
  if (lines[0]?.trimEnd() !== '---') return out;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trimEnd() === '---' || line.trimEnd() === '...') break;
    // Only unindented keys are top-level; quoted keys are accepted as YAML allows.
    const m = /^(?:"([^"]+)"|'([^']+)'|([^\s#:'"][^:]*?))\s*:(?:\s|$)/.exec(line);
    if (!m) continue;
    const key = m[1] ?? m[2] ?? m[3]!;
    if (!out.has(key)) out.set(key, i + 1);
  }
  return out;
}
