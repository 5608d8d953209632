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
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      continue;
    }
    if (c !== '/' || (text[i + 1] !== '/' && text[i + 1] !== '*')) continue;
    const block = text[i + 1] === '*';
    let end: number;
    if (block) {
      const close = text.indexOf('*/', i + 2);
      end = close === -1 ? text.length : close + 2;
    } else {
      end = i + 2;
      while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
    }
    out += text.slice(from, i) + text.slice(i, end).replace(/[^\r\n]/g, ' ');
    from = end;
    i = end - 1;
  }
  return from === 0 ? text : out + text.slice(from);
}
