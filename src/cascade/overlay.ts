/**
 * Overlays of a cascade node (docs/cascade.md): `skill.index.md` has a `## <key>` section per entry
 * with descriptive text. It is consulted only when the node's stamp matches, and then only to break
 * a tie among equally ranked hits: it never creates a candidate. Pure: text in, values out.
 */
import { escapeBlockStart, tokenize } from '../text/index.js';
import { INDEX_FILE } from './index-file.js';

/** The overlay file beside a skill.index. */
export const OVERLAY_FILE = `${INDEX_FILE}.md`;

/**
 * Parses overlay text into its sections: `## <key>` starts a section, its text runs to the next
 * `## ` heading. Text before the first section (a title) is ignored; a repeated key keeps the first.
 */
export function parseOverlay(text: string): ReadonlyMap<string, string> {
  const sections = new Map<string, string>();
  let key: string | undefined;
  let body: string[] = [];
  const close = (): void => {
    if (key !== undefined && !sections.has(key)) sections.set(key, body.join('\n').trim());
  };
  for (const line of text.split(/\r\n|\n|\r/)) {
    const m = /^##[ \t]+(.*?)[ \t]*$/.exec(line);
    if (m) {
      close();
      key = m[1]!;
      body = [];
    } else if (key !== undefined) body.push(line);
  }
  close();
  return sections;
}

/** One overlay section to print. */
export interface OverlaySection {
  readonly key: string;
  readonly text: string;
}

/** Prints an overlay: a title line, then a `## <key>` section per entry with its text on one line. */
export function printOverlay(title: string, sections: readonly OverlaySection[]): string {
  const parts = [`# ${title}`];
  for (const s of sections) {
    const text = s.text.replace(/\s+/g, ' ').trim();
    // A text that starts with #, |, a fence or another block marker would read as a heading (and a
    // new section), a table row or a fence: escape its first character as Markdown does.
    parts.push(`## ${s.key}\n\n${escapeBlockStart(text)}`);
  }
  return parts.join('\n\n') + '\n';
}

/**
 * Overlay score of one section for a need: how many of the need's distinct tokens occur as words
 * of the section's text (both folded). A tie among hits is broken only when one score is strictly highest.
 */
export function overlayScore(
  needTokens: readonly string[],
  sectionText: string | undefined,
): number {
  if (sectionText === undefined || needTokens.length === 0) return 0;
  const words = new Set(tokenize(sectionText));
  let score = 0;
  for (const t of needTokens) if (words.has(t)) score++;
  return score;
}
