/**
 * The stored body counts of a document (term -> frequency, and the body's length in terms), in the
 * two forms older catalogs hold: the compact text v4 publishes wrote on `serving.body_tf` (issue
 * #26) and the JSON `{"tf":{…},"len":n}` of rows and revisions written before that (`body_tf`,
 * `body_v4`). Nothing writes them since issue 33 (a search reads body counts from the postings);
 * a publish still reads them to find the postings of an old row it removes. Also the compact form
 * of a v4 row's forward terms (`serving.fwd`). Pure encoding: the writes live in publish.ts.
 */

/**
 * First character of the compact forms of a body's counts and of a v4 row's forward terms
 * (documents-v4.ts encodeForwardV4), since issue #26's second pass; the JSON written before starts
 * with `{`. Readers tell the two apart by it.
 */
export const COMPACT_BODY = '~';

/**
 * A term the compact forms can hold: not empty, no space and no bar (their separators). Every
 * analysed term (letters, digits and marks) is one; a row with any other is written as JSON.
 */
export function compactTerm(t: string): boolean {
  return t !== '' && !t.includes(' ') && !t.includes('|');
}

/**
 * The counts of stored body counts as a Map (empty for null), in either form: the compact text,
 * `~<len>` followed by one group per count, `|<count>` and then ` <term>` for each term of that
 * count (`~9|1 pdf tabl|3 extract` — 9 terms: pdf and tabl once, extract three times), or JSON
 * BodyTerms, `{"tf":{…},"len":n}`.
 */
export function decodeBodyCounts(text: string | null): { tf: Map<string, number>; len: number } {
  if (text === null) return { tf: new Map(), len: 0 };
  if (text.startsWith(COMPACT_BODY)) {
    const groups = text.slice(1).split('|');
    const tf = new Map<string, number>();
    for (let g = 1; g < groups.length; g++) {
      const words = groups[g]!.split(' ');
      const n = Number(words[0]);
      for (let w = 1; w < words.length; w++) tf.set(words[w]!, n);
    }
    return { tf, len: Number(groups[0]) };
  }
  const b = JSON.parse(text) as { tf: Record<string, number>; len: number };
  return { tf: new Map(Object.entries(b.tf)), len: b.len };
}

/**
 * A row's stored forward terms (`serving.fwd`) as an object, what JSON.parse of the JSON form gives:
 * term -> `[n, k, d, x]` (compact or JSON; documents-v4.ts encodeForwardV4). Terms of one count
 * vector share their array: read it, never change it. Every reader of `fwd` goes through here, so a
 * policy compared on a catalog published under another (the explorer's compare) reads the compact
 * form too.
 */
export function decodeForwardHeadV4(fwd: string): Record<string, number[]> {
  if (!fwd.startsWith(COMPACT_BODY)) return JSON.parse(fwd) as Record<string, number[]>;
  const out = Object.create(null) as Record<string, number[]>;
  const groups = fwd.split('|');
  for (let g = 1; g < groups.length; g++) {
    const words = groups[g]!.split(' ');
    const counts = words[0]!.split(',').map(Number);
    for (let w = 1; w < words.length; w++) out[words[w]!] = counts;
  }
  return out;
}
