/**
 * The stored body counts of a document (term -> frequency, and the body's length in terms), in the
 * two forms a catalog holds: the compact text a v4 publish writes on `serving.body_tf` (issue #26),
 * and the JSON `{"tf":{…},"len":n}` of rows and revisions written before it (`body_tf`,
 * `body_v4`). Every reader takes either, told apart by the first character. Pure encoding: the
 * writes live in publish.ts.
 */

// A term JSON.stringify writes as it is between quotes (no quote, backslash, control character or
// surrogate): every term of letters and digits.
const PLAIN_JSON = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

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
 * A body's counts (a Map) as `serving.body_tf` stores them: compact text, `~<len>` followed by one
 * group per count, `|<count>` and then ` <term>` for each term of that count, groups by increasing
 * count (`~9|1 pdf tabl|3 extract` — 9 terms: pdf and tabl once, extract three times). About a
 * third smaller than JSON, and a search finds a term's count by ` <term>` in the text
 * (postings.ts bodyCountsOfTerms). A body holding a term the form cannot (see compactTerm) is
 * written as JSON BodyTerms, `{"tf":{…},"len":n}`, as every row was before.
 */
export function encodeBodyCounts(body: { tf: ReadonlyMap<string, number>; len: number }): string {
  const groups = new Map<number, string>();
  for (const [t, n] of body.tf) {
    if (!compactTerm(t) || !Number.isSafeInteger(n) || n < 0) return encodeBodyCountsJson(body);
    const g = groups.get(n);
    groups.set(n, g === undefined ? ` ${t}` : `${g} ${t}`);
  }
  let out = `${COMPACT_BODY}${body.len}`;
  for (const n of [...groups.keys()].sort((a, b) => a - b)) out += `|${n}${groups.get(n)!}`;
  return out;
}

/**
 * A body's counts as JSON BodyTerms, `{"tf":{…},"len":n}`, written directly from the Map in its
 * order (the same text as JSON.stringify of the object, without building one).
 */
export function encodeBodyCountsJson(body: {
  tf: ReadonlyMap<string, number>;
  len: number;
}): string {
  let out = '{"tf":{';
  let first = true;
  for (const [t, n] of body.tf) {
    out += `${first ? '' : ','}${PLAIN_JSON.test(t) ? `"${t}"` : JSON.stringify(t)}:${n}`;
    first = false;
  }
  return `${out}},"len":${body.len}}`;
}

/** The counts of stored body counts, compact or JSON BodyTerms, as a Map (empty for null). */
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
 * The count of `term` in compact body counts (0 when absent): the group of its ` <term>`, found in
 * the text rather than by splitting it. Exact because terms hold no space or bar.
 */
function compactCountOf(text: string, term: string): number {
  if (!compactTerm(term)) return 0;
  const key = ` ${term}`;
  for (let i = text.indexOf(key); i !== -1; i = text.indexOf(key, i + 1)) {
    const end = i + key.length;
    const next = text.charCodeAt(end);
    // A whole term ends the text or meets a space or a bar; else `key` began a longer term.
    if (end !== text.length && next !== 32 && next !== 124) continue;
    // The count heads the group: the digits after the last bar before the term.
    let n = 0;
    for (let k = text.lastIndexOf('|', i) + 1; k < i; k++) {
      const d = text.charCodeAt(k) - 48;
      if (d < 0 || d > 9) break;
      n = n * 10 + d;
    }
    return n;
  }
  return 0;
}

/**
 * The count of each of `terms` in stored body counts (compact or JSON BodyTerms), aligned, found by
 * its key in the text rather than by parsing it: a search reads a few terms of many rows.
 */
export function bodyCountsOfTerms(bodyTerms: string | null, terms: readonly string[]): number[] {
  if (bodyTerms !== null && bodyTerms.startsWith(COMPACT_BODY))
    return terms.map((t) => compactCountOf(bodyTerms, t));
  return jsonCountsOfTerms(bodyTerms, terms);
}

// bodyCountsOfTerms of JSON BodyTerms. Exact because terms (stems of letter and digit runs) hold no
// quote or backslash, so a key `"t":` can only start at the object's `{` or after a `,`, and the
// body's `"len"` key lies after the `tf` object, where no lookup goes.
function jsonCountsOfTerms(bodyTerms: string | null, terms: readonly string[]): number[] {
  // The body's tf object: from its first key to the `}` closing it, before `,"len":`.
  const tfStart = bodyTerms === null ? -1 : bodyTerms.indexOf('{"tf":{');
  const tfEnd = tfStart === -1 ? -1 : bodyTerms!.lastIndexOf('},"len":');
  return terms.map((t) => {
    if (tfStart === -1 || tfEnd === -1) return 0;
    const text = bodyTerms!;
    const first = '{"tf":{' + JSON.stringify(t) + ':';
    let at = text.startsWith(first, tfStart) ? tfStart + first.length : -1;
    if (at === -1) {
      const key = ',' + JSON.stringify(t) + ':';
      const i = text.indexOf(key, tfStart);
      if (i !== -1 && i < tfEnd) at = i + key.length;
    }
    if (at === -1) return 0;
    let n = 0;
    for (let k = at; k < text.length; k++) {
      const d = text.charCodeAt(k) - 48;
      if (d < 0 || d > 9) break;
      n = n * 10 + d;
    }
    return n;
  });
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
