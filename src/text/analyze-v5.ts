/**
 * Candidate analyzer switches for a v5 policy (issue 34 item 2, measured by bench/nearmiss.ts,
 * bench/results/nearmiss.md): v4's terms (analyze.ts `analyzeTermsV4`, whose behaviour does not
 * change) with any of four options, each off by default, so `analyzeTermsV5(text)` equals
 * `analyzeTermsV4(text)`:
 *
 * - `brands`: a prose brand name written in camel case (JavaScript, TypeScript, GitHub, PostgreSQL)
 *   stays one term; its parts (java + script) are not emitted, so they do not score on their own;
 * - `keepWords`: stop-words that carry meaning in requests (`let`, `up`, `down`, `out`, `off`…)
 *   are kept as terms;
 * - `agentNouns`: an agent noun also yields its verb (`builder` → build, `linter` → lint,
 *   `formatter` → format), both terms kept;
 * - `abbreviations`: a known abbreviation also yields the word it stands for (`k8s` →
 *   kubernetes, `pg` → postgres), both terms kept.
 *
 * Pure; skill text is only tokenised. The index's terms change only when a policy opts in.
 */
import { identifierTokens } from './analyze.js';
import { cjkTerms, hasCjk, separateCjk } from './cjk.js';
import { fold } from './normalize.js';
import { stem } from './stem.js';
import { isStopWord } from './stop-words.js';

/** Which of the v5 switches are on (all off: v4's terms). */
export interface AnalyzerV5Options {
  readonly brands?: boolean;
  readonly keepWords?: ReadonlySet<string>;
  readonly agentNouns?: boolean;
  readonly abbreviations?: boolean;
}

/**
 * Brand and product names written with an inner capital that are one word in prose (folded).
 * Split, their parts are common words or other names (java, script, hub, sql, book…).
 */
export const BRAND_WORDS: ReadonlySet<string> = new Set([
  'javascript',
  'typescript',
  'coffeescript',
  'actionscript',
  'github',
  'gitlab',
  'bitbucket',
  'postgresql',
  'mysql',
  'mariadb',
  'mongodb',
  'graphql',
  'nosql',
  'sqlite',
  'youtube',
  'linkedin',
  'facebook',
  'whatsapp',
  'powerpoint',
  'openai',
  'openapi',
  'fastapi',
  'nodejs',
  'nextjs',
  'vuejs',
  'webpack',
  'playwright',
  'devops',
  'iphone',
  'macos',
  'ios',
  'wordpress',
  'hubspot',
  'dynamodb',
  'bigquery',
  'clickhouse',
  'pytorch',
  'tensorflow',
  'numpy',
  'matplotlib',
  'chatgpt',
  'latex',
  'figjam',
  'freshbooks',
  'quickbooks',
]);

/** Stop-words audited as carrying meaning in requests (docs: bench/results/nearmiss.md). */
export const MEANINGFUL_STOP_WORDS: ReadonlySet<string> = new Set([
  'let',
  'up',
  'down',
  'out',
  'off',
  'over',
  'before',
  'after',
  'not',
  'no',
]);

/** Abbreviations and the word each stands for (folded, before stemming). */
export const ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ['k8s', 'kubernetes'],
  ['kube', 'kubernetes'],
  ['pg', 'postgres'],
  ['postgresql', 'postgres'],
  ['psql', 'postgres'],
  ['js', 'javascript'],
  ['ts', 'typescript'],
  ['py', 'python'],
  ['db', 'database'],
  ['repo', 'repository'],
  ['repos', 'repository'],
  ['env', 'environment'],
  ['config', 'configuration'],
  ['docs', 'documentation'],
  ['gh', 'github'],
  ['tf', 'terraform'],
  ['i18n', 'internationalization'],
  ['a11y', 'accessibility'],
  ['l10n', 'localization'],
  ['auth', 'authentication'],
  ['ci', 'continuous'],
  ['pr', 'pull'],
  ['prs', 'pull'],
  ['md', 'markdown'],
  ['xlsx', 'excel'],
  ['pptx', 'powerpoint'],
  ['docx', 'word'],
]);

// An agent noun's verb: `builder` → build, `runner` → run (doubled consonant), `parser` → parse.
// Only words of 6+ letters, so `user`, `over`, `after` and the like stay as they are.
function agentVerb(token: string): string | undefined {
  if (token.length < 6 || !/^[a-z]+ers?$/.test(token)) return undefined;
  const base = token.replace(/ers?$/, '');
  if (base.length < 3) return undefined;
  if (/([bdgklmnprt])\1$/.test(base)) return base.slice(0, -1);
  return base;
}

// The raw words of a text (letters and digits), as the identifier split sees them.
const WORD_RE = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;

/** v4's terms of `text` with the given switches (see the file header). */
export function analyzeTermsV5(text: string, options: AnalyzerV5Options = {}): string[] {
  const keep = options.keepWords;
  const src = hasCjk(text) ? separateCjk(text) : text;
  const out: string[] = [];
  const push = (t: string): void => {
    if (isStopWord(t) && !(keep?.has(t) ?? false)) return;
    out.push(stem(t));
    if (options.agentNouns) {
      const v = agentVerb(t);
      if (v !== undefined) out.push(stem(v));
    }
    if (options.abbreviations) {
      const full = ABBREVIATIONS.get(t);
      if (full !== undefined) out.push(stem(full));
    }
  };
  for (const word of src.match(WORD_RE) ?? []) {
    if (options.brands && BRAND_WORDS.has(fold(word))) {
      push(fold(word));
      continue;
    }
    for (const t of identifierTokens(word)) {
      if (hasCjk(t)) out.push(...cjkTerms(t));
      else push(t);
    }
  }
  return out;
}
