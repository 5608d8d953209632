/**
 * Routing clauses in a description (pure): the "use when / triggers on" clauses that say when a
 * skill applies and the "do not use for" clauses that draw its boundary. One parser for the two
 * readers that ask where such clauses stand: lint reports the ones a host's listing cuts off (a
 * clause after the cut never reaches the agent) and eval --triggers --suggest says whether a skill
 * has a boundary clause at all (src/lint), and the listing simulation names the clauses a cut loses
 * (src/hosts/listing-rules.ts `cutLoss`). English phrasings only; text in other scripts yields no
 * clause. Never edits text: offsets index the string given. Ranking's boundary split
 * (boundaries.ts, policy bm25f.v4) has its own frozen cues and never reads this.
 */

/** One clause: its kind, its [start, end) offsets in the text, and the text. */
export interface RoutingClause {
  readonly kind: 'trigger' | 'negative';
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

// Openings of a negative clause: "Do not use for", "Don't use this skill when", "NOT for",
// "Never use it to", "Avoid for". Checked before the trigger openings, which "use for" would match.
const NEGATIVE =
  /\b(?:do\s+not|don['\u2019]t|never)\s+(?:use|invoke|trigger|load)\b|\bnot\s+(?:for|when|to\s+be\s+used)\b|\bavoid\s+(?:using\s+)?(?:this\s+skill\s+)?(?:for|when)\b/giu;

// Openings of a trigger clause: "Use when", "Use this skill for", "Triggers:", "Trigger on",
// "Invoke when", "Activate when", "when the user asks/mentions/wants/says/needs".
const TRIGGER =
  /\buse\s+(?:this\s+(?:skill\s+)?|it\s+)?(?:when|whenever|for|if|to|on)\b|\btrigger(?:s|ed)?(?:\s+(?:on|when|by|words?|phrases?))?\s*:|\btrigger(?:s|ed)?\s+(?:on|when|by)\b|\b(?:invoke|activate|load)\s+(?:this\s+skill\s+)?(?:when|for|on)\b|\bwhen\s+(?:the\s+)?user\s+(?:asks|mentions|wants|says|needs|requests|types)\b/giu;

// A clause runs to the end of its sentence: a full stop, semicolon, "!" or "?" followed by space
// or the end, or a line break.
const SENTENCE_END = /[.;!?](?=\s|$)|\n/gu;

/** The routing clauses of `text`, in text order (a negative opening wins over a trigger one). */
export function findClauses(text: string): RoutingClause[] {
  const opens: { kind: RoutingClause['kind']; at: number }[] = [];
  for (const m of text.matchAll(NEGATIVE)) opens.push({ kind: 'negative', at: m.index });
  for (const m of text.matchAll(TRIGGER)) {
    // "do not use for": the trigger pattern matches inside a negative opening; it is not a trigger.
    if (opens.some((o) => o.kind === 'negative' && m.index >= o.at && m.index <= o.at + 12))
      continue;
    opens.push({ kind: 'trigger', at: m.index });
  }
  opens.sort((a, b) => a.at - b.at || (a.kind === 'negative' ? -1 : 1));
  const out: RoutingClause[] = [];
  for (const o of opens) {
    // A clause already running covers an opening inside it ("Use when … or when the user asks").
    if (out.length > 0 && o.at < out.at(-1)!.end) continue;
    SENTENCE_END.lastIndex = o.at;
    const end = SENTENCE_END.exec(text)?.index ?? text.length;
    out.push({ kind: o.kind, start: o.at, end, text: text.slice(o.at, end).trim() });
  }
  return out;
}
