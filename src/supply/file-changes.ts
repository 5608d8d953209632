/**
 * Two listings of a skill folder compared file by file (path to digest): what `skilldex diff`
 * reports between two generations and `skilldex verify` between the lock and the disk.
 */

/** How one path differs between two listings. */
export type ChangeKind = 'added' | 'removed' | 'changed';

/** One differing path, each side's digest under the name the report gives it. */
export type DigestChange<Before extends string, After extends string> = {
  readonly path: string;
  readonly change: ChangeKind;
} & { readonly [K in Before | After]?: string };

/**
 * The paths whose digest differs between `before` and `after`, in UTF-8 order: `added` (only in
 * `after`, its digest under `names[1]`), `removed` (only in `before`, under `names[0]`) or
 * `changed` (both, the older first).
 */
export function digestChanges<Before extends string, After extends string>(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
  names: readonly [Before, After],
): DigestChange<Before, After>[] {
  const [from, to] = names;
  const out: DigestChange<Before, After>[] = [];
  for (const p of [...new Set([...before.keys(), ...after.keys()])].sort(compareUtf8)) {
    const x = before.get(p);
    const y = after.get(p);
    if (x === y) continue;
    const change =
      x === undefined
        ? { path: p, change: 'added', [to]: y! }
        : y === undefined
          ? { path: p, change: 'removed', [from]: x }
          : { path: p, change: 'changed', [from]: x, [to]: y };
    out.push(change as DigestChange<Before, After>);
  }
  return out;
}

/** Orders strings by their UTF-8 bytes (code point order), the order listings are kept in. */
export function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
