/**
 * Unicode normalisation and case folding (pure). Every comparison of user or skill text in
 * skilldex goes through `fold`, so "Ｐｄｆ", "PDF" and "pdf" meet as one word.
 */

/** NFKC-normalises and case-folds `text` (full lower-casing after compatibility composition). */
export function fold(text: string): string {
  // NFKC first (compatibility forms like full-width letters and ligatures become plain letters),
  // then lower-case, then NFKC again because lower-casing can produce decomposed sequences.
  return text.normalize('NFKC').toLowerCase().normalize('NFKC');
}
