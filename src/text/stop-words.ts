/**
 * English stop-words (pure data). Source: the Snowball project's English stop-word list
 * (snowballstem.org/algorithms/english/stop.txt, BSD licence), with its contractions split the way
 * our tokenizer splits them ("don't" → "don", "t"), so every entry is a single token.
 */

/** The stop-word set; all entries are folded single tokens. */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  'i', 'me', 'my', 'myself', 'we', 'our', 'ours', 'ourselves', 'you', 'your', 'yours', 'yourself',
  'yourselves', 'he', 'him', 'his', 'himself', 'she', 'her', 'hers', 'herself', 'it', 'its', 'itself',
  'they', 'them', 'their', 'theirs', 'themselves', 'what', 'which', 'who', 'whom', 'this', 'that',
  'these', 'those', 'am', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'have', 'has', 'had',
  'having', 'do', 'does', 'did', 'doing', 'would', 'should', 'could', 'ought', 'a', 'an', 'the',
  'and', 'but', 'if', 'or', 'because', 'as', 'until', 'while', 'of', 'at', 'by', 'for', 'with',
  'about', 'against', 'between', 'into', 'through', 'during', 'before', 'after', 'above', 'below',
  'to', 'from', 'up', 'down', 'in', 'out', 'on', 'off', 'over', 'under', 'again', 'further', 'then',
  'once', 'here', 'there', 'when', 'where', 'why', 'how', 'all', 'any', 'both', 'each', 'few',
  'more', 'most', 'other', 'some', 'such', 'no', 'nor', 'not', 'only', 'own', 'same', 'so', 'than',
  'too', 'very',
  // Contraction pieces ("i'm", "you're", "isn't", "we'll", "they've", "he'd", "let's").
  's', 't', 'm', 're', 've', 'll', 'd', 'don', 'isn', 'aren', 'wasn', 'weren', 'hasn', 'haven',
  'hadn', 'doesn', 'didn', 'won', 'wouldn', 'shan', 'shouldn', 'can', 'cannot', 'couldn', 'mustn',
  'let',
]);

/** True when the folded token `token` is an English stop-word. */
export function isStopWord(token: string): boolean {
  return STOP_WORDS.has(token);
}
