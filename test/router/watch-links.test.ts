/**
 * `index --watch` follows links as the walk does (issue 25): a link inside a scope that leads to a
 * large tree outside every scope adds no watches for that tree and edits there trigger nothing,
 * while a link into another scope and edits inside the scopes are seen. Watches are counted from
 * the kernel's own list (/proc/self/fdinfo, Linux).
 */
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  indexCatalog,
  watchCatalog,
  type CatalogWatch,
  type IndexReport,
} from '../../src/internal.js';
import { skillMd, tmpDir, writeTree } from '../support/cli.js';

/** inotify watches this process holds, summed over its inotify descriptors. */
function inotifyWatches(): number {
  let n = 0;
  for (const fd of readdirSync('/proc/self/fdinfo')) {
    let info: string;
    try {
      info = readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
    } catch {
      continue;
    }
    n += info.split('\n').filter((l) => l.startsWith('inotify wd:')).length;
  }
  return n;
}

const open: CatalogWatch[] = [];
afterEach(async () => {
  for (const w of open.splice(0)) await w.close();
});

const FOREIGN_FOLDERS = 300;

describe.skipIf(!existsSync('/proc/self/fdinfo'))('watching through links', () => {
  it('watches no folder of a tree a link leads to outside the scopes, and ignores edits there', async () => {
    const root = tmpDir();
    writeTree(root, {
      'scope/alpha/SKILL.md': skillMd('alpha', 'alpha tool'),
      'other/beta/SKILL.md': skillMd('beta', 'beta tool'),
    });
    const foreign: Record<string, string> = {};
    for (let i = 0; i < FOREIGN_FOLDERS; i++)
      foreign[`foreign/d${i}/SKILL.md`] = skillMd(`f${i}`, `foreign ${i}`);
    writeTree(root, foreign);
    const scope = path.join(root, 'scope');
    const other = path.join(root, 'other');
    symlinkSync(path.join(root, 'foreign'), path.join(scope, 'elsewhere'));
    symlinkSync(path.join(other, 'beta'), path.join(scope, 'beta-link'));
    const catalog = path.join(root, 'catalog.sqlite');
    const first = indexCatalog({ catalog, scopes: [scope, other] });
    // The walk itself never reads the foreign tree.
    expect([...first.added].sort()).toEqual(['alpha', 'beta']);

    const before = inotifyWatches();
    const reports: IndexReport[] = [];
    const watch = await watchCatalog({
      catalog,
      scopes: [scope, other],
      debounceMs: 50,
      onIndex: (r) => reports.push(r),
    });
    open.push(watch);
    const added = inotifyWatches() - before;
    expect(added).toBeLessThan(FOREIGN_FOLDERS / 10);

    // An edit in the foreign tree: no re-index.
    writeFileSync(path.join(root, 'foreign', 'd7', 'SKILL.md'), skillMd('f7', 'changed'));
    await new Promise((r) => setTimeout(r, 600));
    expect(reports).toEqual([]);

    // An edit in the other scope, which a link also leads to: seen.
    writeFileSync(path.join(other, 'beta', 'SKILL.md'), skillMd('beta', 'beta tool, edited'));
    const deadline = Date.now() + 15_000;
    while (reports.length === 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(reports.length).toBeGreaterThan(0);
    expect(reports.at(-1)!.changed).toContain('beta');
  });
});
