/**
 * Renders a skill's Markdown body as DOM nodes (issue 15) without ever parsing HTML: markdown-it
 * (with `html: false`, so any HTML in the body stays text) turns the text into tokens, and each
 * token becomes an element from a fixed list, its text set with text nodes. Links keep their target
 * only when `safeHref` allows it; images are shown as their alt text, never loaded.
 */
import MarkdownIt, { type Token } from 'markdown-it';
import { safeHref } from './links.js';

const md = MarkdownIt({ html: false, linkify: false, typographer: false });

/** Elements a token may create; any other tag renders its content inside a plain div or span. */
const TAGS: ReadonlySet<string> = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'blockquote',
  'em',
  'strong',
  's',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'hr',
  'br',
  'a',
]);

/** The body of `text` (after a leading `---` frontmatter block, if any) rendered into `target`. */
export function renderMarkdown(text: string, target: HTMLElement): void {
  target.replaceChildren();
  renderTokens(md.parse(stripFrontmatter(text), {}), target);
}

/** `text` without a leading `---` … `---` frontmatter block. */
export function stripFrontmatter(text: string): string {
  const t = text.replace(/^\ufeff/, '');
  const m = /^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/.exec(t);
  return m ? t.slice(m[0].length) : t;
}

function renderTokens(tokens: readonly Token[], root: HTMLElement): void {
  const stack: HTMLElement[] = [root];
  const top = (): HTMLElement => stack[stack.length - 1]!;
  for (const t of tokens) {
    if (t.nesting === 1) {
      const el = element(t);
      top().append(el);
      stack.push(el);
    } else if (t.nesting === -1) {
      if (stack.length > 1) stack.pop();
    } else if (t.type === 'inline') {
      renderTokens(t.children ?? [], top());
    } else if (t.type === 'fence' || t.type === 'code_block') {
      const pre = document.createElement('pre');
      const code = document.createElement('code');
      code.textContent = t.content;
      pre.append(code);
      top().append(pre);
    } else if (t.type === 'code_inline') {
      const code = document.createElement('code');
      code.textContent = t.content;
      top().append(code);
    } else if (t.type === 'softbreak') {
      top().append(document.createTextNode('\n'));
    } else if (t.type === 'hardbreak') {
      top().append(document.createElement('br'));
    } else if (t.type === 'hr') {
      top().append(document.createElement('hr'));
    } else if (t.type === 'image') {
      const span = document.createElement('span');
      span.className = 'md-image';
      span.textContent = `[image: ${t.content || String(t.attrGet('src') ?? '')}]`;
      top().append(span);
    } else {
      // text, html_inline/html_block (only as text: html is off), entities: all plain text.
      top().append(document.createTextNode(t.content));
    }
  }
}

function element(t: Token): HTMLElement {
  if (t.type === 'link_open') {
    const href = safeHref(String(t.attrGet('href') ?? ''));
    if (href === undefined) {
      const span = document.createElement('span');
      span.className = 'md-unsafe-link';
      span.title = 'link target removed';
      return span;
    }
    const a = document.createElement('a');
    a.href = href;
    a.rel = 'noopener noreferrer nofollow';
    return a;
  }
  if (TAGS.has(t.tag)) return document.createElement(t.tag);
  return document.createElement(t.block ? 'div' : 'span');
}
