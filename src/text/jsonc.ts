/**
 * The one scanner of JSON text outside its string literals (issue 33: `blankJsonComments` here and
 * the settings editor in cli/init/json-edit.ts each had their own). Calls `visit(i)` for every
 * character of `text` outside a `"…"` string (a string's quotes and contents, escapes included, are
 * skipped). `visit` returns undefined to go on with the next character, or the index to resume at
 * (greater than `i`; `text.length` stops the scan). Comments are not special here: a caller that
 * knows them skips them by returning where they end. Pure; linear.
 */
export function scanOutsideStrings(text: string, visit: (i: number) => number | undefined): void {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else {
      const resume = visit(i);
      if (resume !== undefined) i = resume - 1;
    }
  }
}

/** Whether a `//` or `/*` comment starts at `i` (the caller knows `i` is outside a string). */
export function jsonCommentAt(text: string, i: number): boolean {
  return text[i] === '/' && (text[i + 1] === '/' || text[i + 1] === '*');
}

/**
 * JSON with comments (Gemini CLI's settings.json, issue 35): the text with every `//` line comment
 * and `/* … *\/` block comment outside strings replaced by spaces — line breaks kept — so it has the
 * same length and every value the same offsets, and strict JSON.parse reads it. What Gemini CLI
 * does with its settings (google-gemini/gemini-cli packages/cli/src/config/settings.ts: the file
 * goes through strip-json-comments, which by default replaces comments with white space, then
 * JSON.parse). An unterminated block comment is blanked to the end. Pure; linear.
 */
export function blankJsonComments(text: string): string {
  let out = '';
  let from = 0;
  scanOutsideStrings(text, (i) => {
    if (!jsonCommentAt(text, i)) return undefined;
    let end: number;
    if (text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      end = close === -1 ? text.length : close + 2;
    } else {
      end = i + 2;
      while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
    }
    out += text.slice(from, i) + text.slice(i, end).replace(/[^\r\n]/g, ' ');
    from = end;
    return end;
  });
  return from === 0 ? text : out + text.slice(from);
}
