/**
 * The one string order of skilldex's sorted output: by UTF-16 code units, as `<` compares, never by
 * locale, so a list sorts the same on every machine.
 */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
