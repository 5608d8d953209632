/**
 * Stored token strings: the folded tokens of a skill's fields, computed once at publish time
 * (re-tokenising candidates at query time was measured at ~1.7 ms per 200 rows). Each string
 * is ` t1 t2 … ` with a space on both ends so `instr(col, ' t ')` tests membership in SQL, and the
 * same string feeds FTS5, so every exact token match is also an FTS match.
 */
import { stem, tokenize } from '../../text/index.js';

/**
 * The token strings of one skill: name, keywords (keywords and tags), description (+ when_to_use),
 * as folded surface tokens (`*_tok`, fed to FTS5 and fuzzy matching) and as their Porter stems
 * (`*_st`, for the exact tiers).
 */
export interface TokenStrings {
  readonly name_tok: string;
  readonly kw_tok: string;
  readonly desc_tok: string;
  readonly name_st: string;
  readonly kw_st: string;
  readonly desc_st: string;
}

/** Computes the stored token strings of a skill. */
export function tokenStrings(s: {
  name: string;
  keywords: readonly string[];
  tags: readonly string[];
  description: string;
  when_to_use?: string | null;
}): TokenStrings {
  const name = tokenize(s.name);
  const kw = tokenize([...s.keywords, ...s.tags].join(' , '));
  const desc = tokenize(s.description + (s.when_to_use ? '\n' + s.when_to_use : ''));
  return {
    name_tok: wrap(name),
    kw_tok: wrap(kw),
    desc_tok: wrap(desc),
    name_st: wrap(name.map(stem)),
    kw_st: wrap(kw.map(stem)),
    desc_st: wrap(desc.map(stem)),
  };
}

/** The distinct tokens of a stored token string. */
export function tokenSet(tok: string): Set<string> {
  return new Set(tok.split(' ').filter((t) => t !== ''));
}

function wrap(tokens: readonly string[]): string {
  return tokens.length === 0 ? ' ' : ` ${tokens.join(' ')} `;
}
