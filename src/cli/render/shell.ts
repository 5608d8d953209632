/**
 * A value as one shell word, for the commands skilldex prints for a person to copy (`fetch` lines,
 * `claude mcp add`, `cascade build`): plain words as they are, anything else single-quoted, with
 * invisible and control characters escaped so the line shows what it runs. Pure text.
 */
import { escapeInvisible } from '../../text/index.js';

/** `s` as one POSIX shell word. */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${escapeInvisible(s).replace(/'/g, `'\\''`)}'`;
}
