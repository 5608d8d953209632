/**
 * `index` reads each served skill's own trigger evaluations (issue 34 item 1): the files beside
 * its SKILL.md that `eval --triggers` reads (trigger-formats.ts: TRIGGER_FILE_RE, in the skill's
 * folder or up to two levels below it, as discover.ts finds them), their should-trigger requests
 * as `author` examples of polarity `positive` and their should-not requests as `negative`. An item
 * naming another skill is not read: an author example only ever moves its own skill. A file of a
 * skill nested deeper belongs to that skill. Files are read through src/fsx (regular files, no
 * link out of the folder, MAX_AUTHOR_FILE_BYTES); an unreadable or malformed file adds nothing
 * (`eval --triggers` is where an author sees its problems). The stored set follows the files at
 * each publish (catalog/side/author.ts syncAuthorExamples), capped per skill.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  catalogExists,
  isPgLocation,
  openUsageForWrite,
  servedSkillFiles,
  syncAuthorExamples,
  telemetryPathFor,
  type AuthorExample,
  type AuthorSyncReport,
  type Db,
} from '../../catalog/index.js';
import { readTextCapped, walkFiles } from '../../fsx/index.js';
import { TRIGGER_FILE_RE, parseTriggerFile } from './trigger-formats.js';

/** Largest trigger-eval file `index` reads (1 MiB: a few thousand requests). */
export const MAX_AUTHOR_FILE_BYTES = 1024 * 1024;

/**
 * The author examples of each skill, read from the files beside it (file and item order). A folder
 * in `alone` is one the same run's discovery walk found holding its SKILL.md and nothing else: it
 * holds no evaluation file, and is not walked again.
 */
export function readAuthorExamples(
  skills: readonly { skill_id: string; path: string }[],
  alone: ReadonlySet<string> = new Set(),
): Map<string, AuthorExample[]> {
  const dirs = skills.map((s) => ({ id: s.skill_id, dir: path.dirname(s.path) }));
  const out = new Map<string, AuthorExample[]>();
  for (const { id, dir } of dirs) {
    const list: AuthorExample[] = [];
    out.set(id, list);
    if (alone.has(dir)) continue;
    const walked = walkFiles(dir, (n) => TRIGGER_FILE_RE.test(n), {
      maxDepth: 2,
      maxEntries: 5_000,
    });
    for (const f of walked.files) {
      if (ownerDir(f.path, dirs) !== dir) continue;
      const r = readTextCapped(f.path, { maxBytes: MAX_AUTHOR_FILE_BYTES, noFollow: true });
      if (!r.ok) continue;
      for (const c of parseTriggerFile(r.text, f.path).cases) {
        if (c.skill !== undefined && c.skill !== id && c.skill !== path.basename(dir)) continue;
        list.push({ query: c.query, polarity: c.should_trigger ? 'positive' : 'negative' });
      }
    }
  }
  return out;
}

// The deepest skill folder holding `file` (the skill a file beside two skills belongs to).
function ownerDir(file: string, dirs: readonly { dir: string }[]): string | undefined {
  let best: string | undefined;
  for (const { dir } of dirs) {
    const r = path.relative(dir, path.dirname(file));
    const inside = r === '' || (!r.startsWith('..') && !path.isAbsolute(r));
    if (inside && (best === undefined || dir.length > best.length)) best = dir;
  }
  return best;
}

/**
 * After a publish: reads the author examples of every skill the catalog serves unarchived and
 * makes the telemetry file's author examples those (a removed file removes its examples). Creates
 * no telemetry file when there is none and no skill ships an evaluation. Undefined when it did
 * nothing. `alone`: the skill folders this run's walk found holding their SKILL.md alone
 * (readAuthorExamples), by the folder of the SKILL.md's path.
 */
export function syncAuthorExamplesOf(
  catalog: string,
  db: Db,
  now: () => Date = () => new Date(),
  alone?: ReadonlySet<string>,
): AuthorSyncReport | undefined {
  if (!catalogExists(catalog)) return undefined;
  const file = telemetryPathFor(catalog);
  const bySkill = readAuthorExamples(servedSkillFiles(db), alone);
  const any = [...bySkill.values()].some((l) => l.length > 0);
  if (!any && !isPgLocation(file) && !existsSync(file)) return undefined;
  const u = openUsageForWrite(file);
  try {
    return syncAuthorExamples(u, bySkill, now().toISOString());
  } finally {
    u.close();
  }
}
