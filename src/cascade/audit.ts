/**
 * `cascade audit` (docs/cascade.md): lists every problem a crawl of the cascade at a root could meet.
 * The structural walk (audit-walk.ts) follows every entry; this file adds what needs the whole
 * picture: SKILL.md files below the root that no entry leads to (the one place the audit lists
 * folders, confined to the root), sibling entries with alike keyword sets, and skills whose own
 * name, used as the need, ends ambiguous or at another skill. Exit 0 only when clean.
 */
import path from 'node:path';
import {
  PROBLEM_CODES,
  SkilldexError,
  assertKnownOptions,
  optionKeys,
  problem,
  type Problem,
} from '../errors.js';
import { toPosixRelative, walkFiles } from '../fsx/index.js';
import { SKILL_FILE, loadSkillFile } from '../skills/index.js';
import { compareStrings } from '../text/index.js';
import { walkCascade } from './audit-walk.js';
import { crawlIn } from './crawl.js';
import { prepareNeed } from './match.js';
import type { NodeContext } from './node.js';
import { DEFAULT_MAX_INDEX_BYTES, FS_READER, type CascadeReader } from './reader.js';
import type { AuditReport } from './report.js';
import { ambiguousSiblings } from './similarity.js';

/** Options of `auditCascade`. */
export interface AuditOptions {
  /** Size cap of a skill.index and of its overlay, in bytes. Default 4 MiB. */
  readonly maxIndexBytes?: number;
  /** Deepest folder level searched for SKILL.md files below the root. Default 24. */
  readonly maxDepth?: number;
  /** Called as the skills are crawled for their own names with `(done, total)`, for progress lines. */
  readonly onProgress?: (done: number, total: number) => void;
  /**
   * Where index, stamp and overlay files are read from. Default: the file system. `cascade build`
   * passes one that answers with the files it plans, to report what an audit right after it finds.
   */
  readonly reader?: CascadeReader;
}

const AUDIT_OPTION_KEYS = optionKeys<AuditOptions>()(
  'maxIndexBytes',
  'maxDepth',
  'onProgress',
  'reader',
);

/**
 * Audits the cascade at `root`. Throws FILE_NOT_FOUND when the root does not exist. The report is
 * clean only when no problem was found.
 */
export function auditCascade(root: string, options: AuditOptions = {}): AuditReport {
  assertKnownOptions(options, AUDIT_OPTION_KEYS, 'auditCascade');
  const reader = cachingReader(options.reader ?? FS_READER);
  const rootReal = reader.realpath(path.resolve(root));
  if (rootReal === undefined)
    throw new SkilldexError('FILE_NOT_FOUND', `cascade root ${root} does not exist`, { root });
  const maxIndexBytes = options.maxIndexBytes ?? DEFAULT_MAX_INDEX_BYTES;
  const ctx: NodeContext = { reader, rootReal, maxIndexBytes, memo: new Map() };

  const walk = walkCascade(ctx);
  const problems: Problem[] = [...walk.problems];
  for (const node of walk.nodes) problems.push(...ambiguousSiblings(node.rel, node.index.entries));

  // Every SKILL.md below the root: the reachable ones are crawled for their own name.
  const found = walkFiles(
    rootReal,
    (n) => n === SKILL_FILE,
    options.maxDepth !== undefined ? { maxDepth: options.maxDepth } : {},
  );
  for (const p of found.problems) {
    // A link back into a folder already walked is the walker's business; a crawl meets it as REFERENCE_LOOP.
    if (p.code === 'LINK_LOOP') continue;
    const rel = toPosixRelative(rootReal, p.path);
    problems.push(problem(p.code, rel, `${rel}: ${PROBLEM_CODES[p.code]}`));
  }
  const folders = new Map<
    string,
    { real: string; walked: string; file: string; fileReal: string }
  >();
  for (const f of found.files) {
    const real = path.dirname(f.realPath);
    if (!folders.has(real))
      folders.set(real, { real, walked: path.dirname(f.path), file: f.path, fileReal: f.realPath });
  }
  let reachable = 0;
  let done = 0;
  for (const folder of folders.values()) {
    options.onProgress?.(done++, folders.size);
    const rel = toPosixRelative(rootReal, folder.walked);
    if (!walk.reached.has(folder.real)) {
      if (walk.rootIndexed)
        problems.push(
          problem(
            'UNREACHABLE_SKILL',
            rel,
            `${rel}/${SKILL_FILE} is a skill that no index entry leads to`,
          ),
        );
      else
        problems.push(
          problem(
            'UNREACHABLE_SKILL',
            rel,
            `${rel}/${SKILL_FILE} cannot be reached: the root has no index`,
          ),
        );
      continue;
    }
    reachable++;
    const name = skillName(folder.file, folder.fileReal, rootReal);
    const crawl = crawlIn(ctx, prepareNeed(name));
    const here = walk.reached.get(folder.real)!;
    if (crawl.outcome === 'ambiguous') {
      const keys = (crawl.candidates ?? []).map((c) => c.path).join(', ');
      problems.push(
        problem(
          'AMBIGUOUS_KEYWORDS',
          here,
          `the need ${JSON.stringify(name)} (the skill's own name) ends ambiguous in ${crawl.visited.at(-1) ?? '.'} between ${keys}`,
        ),
      );
    } else if (crawl.outcome === 'hit' && crawl.hit && crawl.hit.path !== here) {
      problems.push(
        problem(
          'AMBIGUOUS_KEYWORDS',
          here,
          `the need ${JSON.stringify(name)} (the skill's own name) reaches ${crawl.hit.path} instead`,
        ),
      );
    }
  }

  options.onProgress?.(folders.size, folders.size);
  const unique = dedupeProblems(problems);
  return {
    clean: unique.length === 0,
    nodes: walk.nodes.map((n) => n.rel),
    skills: folders.size,
    reachable,
    problems: unique,
  };
}

/** The skill's frontmatter name, or its folder name when the frontmatter cannot be read. */
function skillName(file: string, fileReal: string, rootReal: string): string {
  const loaded = loadSkillFile({
    path: file,
    realPath: fileReal,
    scope: 'custom',
    scopePath: rootReal,
  });
  return loaded.ok ? loaded.record.name : path.basename(path.dirname(fileReal));
}

/** A reader that remembers every answer for the length of one audit (crawls revisit the same nodes). */
function cachingReader(inner: CascadeReader): CascadeReader {
  const real = new Map<string, string | undefined>();
  const bytes = new Map<string, ReturnType<CascadeReader['readBytes']>>();
  return {
    realpath: (p) => {
      if (!real.has(p)) real.set(p, inner.realpath(p));
      return real.get(p);
    },
    readBytes: (p, maxBytes, label) => {
      const key = `${maxBytes}\0${label}\0${p}`;
      let r = bytes.get(key);
      if (r === undefined) {
        r = inner.readBytes(p, maxBytes, label);
        bytes.set(key, r);
      }
      return r;
    },
  };
}

function dedupeProblems(problems: readonly Problem[]): Problem[] {
  const seen = new Set<string>();
  const out: Problem[] = [];
  for (const p of problems) {
    const key = `${p.code}\0${p.path}\0${p.line ?? ''}\0${p.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p);
  }
  return out.sort(
    (a, b) =>
      compareStrings(a.path, b.path) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      compareStrings(a.code, b.code) ||
      compareStrings(a.message, b.message),
  );
}
