/** `s` with every character a regular expression gives a meaning escaped, to match it literally. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
