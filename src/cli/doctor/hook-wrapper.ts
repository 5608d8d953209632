/**
 * What the silent wrapper around an init-made hook command needs (issue 35, item 4). init wraps
 * `skilldex hook <client>` in `/bin/sh -c '<script>' skilldex-hook <args>` (init/hook-step.ts
 * hookCommand) so that a moved checkout, a switched Node (nvm) or an uninstalled skilldex shows the
 * user no hook error: the wrapper then exits 0 and prints nothing. That silence is right towards the
 * host, but it also hides the breakage from doctor's live run (exit 0, nothing logged). So doctor
 * reads the wrapper's own arguments and checks, as the wrapper does, what it needs: the Node and
 * the `bin/skilldex.js` it names (`[ -x "$1" ] && [ -f "$2" ]`), or `node` and `skilldex` on PATH
 * (`command -v`). A command of another shape (edited by hand) is only run.
 */
import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import path from 'node:path';
import { onPath } from '../init/hook-plan.js';

/** Why the wrapper would exit silently without running skilldex; undefined when it would run it. */
export function wrapperGap(command: string, pathVar: string | undefined): string | undefined {
  const words = shellWords(command);
  if (words === undefined || words[0] !== '/bin/sh' || words[1] !== '-c') return undefined;
  const script = words[2] ?? '';
  if (words[3] !== 'skilldex-hook') return undefined;
  const args = words.slice(4);
  if (script.startsWith('[ -x "$1" ] && [ -f "$2" ]')) {
    const [node, bin] = args;
    if (node === undefined || bin === undefined) return undefined;
    if (!isExecutableFile(node))
      return `the Node it runs, ${node}, is gone or not executable (a switched Node, nvm?), so the hook exits 0 and does nothing on every prompt`;
    if (!isFile(bin))
      return `the skilldex it runs, ${bin}, is gone (a moved or deleted checkout?), so the hook exits 0 and does nothing on every prompt`;
    return undefined;
  }
  if (script.startsWith('command -v node')) {
    const missing = ['node', 'skilldex'].filter((n) => !onPath(n, pathVar));
    if (missing.length > 0)
      return `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not on this PATH, so the hook exits 0 and does nothing on every prompt`;
  }
  return undefined;
}

/**
 * The words of a POSIX shell command line made of plain words, '…' and "…" quoted parts (with
 * backslash escapes in "…" and outside quotes), as init's shWord writes them; undefined for
 * anything else (an operator, an unclosed quote), which doctor then only runs.
 */
function shellWords(line: string): string[] | undefined {
  const words: string[] = [];
  let cur: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === ' ' || c === '\t' || c === '\n') {
      if (cur !== undefined) words.push(cur);
      cur = undefined;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return undefined;
      cur = (cur ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let s = '';
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length && '$`"\\\n'.includes(line[j + 1]!)) j++;
        else if ('$`'.includes(line[j]!)) return undefined;
        s += line[j];
      }
      if (j >= line.length) return undefined;
      cur = (cur ?? '') + s;
      i = j;
    } else if (c === '\\') {
      if (i + 1 >= line.length) return undefined;
      i++;
      cur = (cur ?? '') + line[i];
    } else if (!/[\w@%+=:,./-]/.test(c)) {
      // An operator, a glob, a variable: not a line init wrote.
      return undefined;
    } else cur = (cur ?? '') + c;
  }
  if (cur !== undefined) words.push(cur);
  return words;
}

function isFile(p: string): boolean {
  try {
    return path.isAbsolute(p) && statSync(p).isFile();
  } catch {
    return false;
  }
}

function isExecutableFile(p: string): boolean {
  if (!isFile(p)) return false;
  try {
    accessSync(p, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}
