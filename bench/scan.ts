/**
 * Scan benchmark (issue #2 "Done when"): skills per second of `discoverSkills` on a generated tree
 * of 10,000 skill folders, beside a plain baseline measured in the same process run on the same
 * tree: `find DIR -name SKILL.md` plus one readFileSync of every listed file. Both are timed warm
 * (one untimed pass first) and reported as the median of three passes.
 *
 * The baseline only lists and reads; discovery also stats, confines links, hashes, splits and
 * parses the YAML frontmatter, validates it and dedups, so the ratio is the price of all that.
 *
 *   npm run bench:scan
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { discoverSkills } from '../src/internal.js';
import { WORK, fmt, machineLine, median, rng, time, writeResult, zipfWords } from './lib.js';

/** Skill folders in the generated tree. */
const SKILLS = 10_000;
/** Skill folders per group folder (a library grouped by domain, as large ones are). */
const PER_GROUP = 100;
/** Target body size per SKILL.md, in bytes (issue #2: ~2 KB bodies). */
const BODY_BYTES = 2048;
/** Timed passes per method; the median is reported. */
const PASSES = 3;

const TREE = path.join(WORK, 'scan-10k');
// Written last: a tree without it (an interrupted generation) is generated again.
const MARKER = path.join(TREE, '.complete');

function sentence(rand: () => number, min: number, max: number): string {
  const words = zipfWords(rand, min + Math.floor(rand() * (max - min + 1)));
  const s = words.join(' ');
  return s.charAt(0).toUpperCase() + s.slice(1) + '.';
}

function skillFile(i: number, rand: () => number): { folder: string; text: string } {
  const stem = [...new Set(zipfWords(rand, 3))].join('-');
  const name = `${stem}-${String(i).padStart(5, '0')}`;
  const keywords = [...new Set(zipfWords(rand, 3 + Math.floor(rand() * 4)))];
  const lines = [
    '---',
    `name: ${name}`,
    `description: ${JSON.stringify(`${sentence(rand, 12, 30)} Use when ${sentence(rand, 5, 12).toLowerCase()}`)}`,
    'keywords:',
    ...keywords.map((k) => `  - ${k}`),
    ...(rand() < 0.5
      ? [`version: "${1 + Math.floor(rand() * 3)}.${Math.floor(rand() * 10)}.0"`]
      : []),
    ...(rand() < 0.3 ? [`tags: [${[...new Set(zipfWords(rand, 2))].join(', ')}]`] : []),
    'license: MIT',
    '---',
    '',
    `# ${name}`,
    '',
  ];
  let body = '';
  let section = 0;
  while (Buffer.byteLength(body) < BODY_BYTES) {
    section++;
    body += `## ${sentence(rand, 2, 4).slice(0, -1)}\n\n${sentence(rand, 20, 50)} ${sentence(rand, 10, 30)}\n\n`;
    for (let b = 0; b < 3; b++) body += `- ${sentence(rand, 4, 12)}\n`;
    body +=
      section % 2 === 0
        ? `\n\`\`\`bash\n${zipfWords(rand, 4).join(' ')} --${zipfWords(rand, 1)[0]}\n\`\`\`\n\n`
        : '\n';
  }
  return {
    folder: path.join(`group-${String(Math.floor(i / PER_GROUP)).padStart(3, '0')}`, name),
    text: lines.join('\n') + body,
  };
}

function generate(): void {
  if (existsSync(MARKER)) return;
  rmSync(TREE, { recursive: true, force: true });
  const rand = rng(20_240_601);
  for (let i = 0; i < SKILLS; i++) {
    const { folder, text } = skillFile(i, rand);
    mkdirSync(path.join(TREE, folder), { recursive: true });
    writeFileSync(path.join(TREE, folder, 'SKILL.md'), text);
  }
  writeFileSync(MARKER, `${SKILLS}\n`);
}

function findAndRead(): { files: number; bytes: number } {
  const r = spawnSync('find', [TREE, '-name', 'SKILL.md'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`find failed: ${r.stderr}`);
  let files = 0;
  let bytes = 0;
  for (const p of r.stdout.split('\n')) {
    if (p === '') continue;
    bytes += readFileSync(p).length;
    files++;
  }
  return { files, bytes };
}

function measure<T>(fn: () => T): { value: T; ms: number; passes: number[] } {
  fn(); // warm the page cache and the JIT
  const passes: number[] = [];
  let value: T = fn();
  for (let p = 0; p < PASSES; p++) {
    const t = time(fn);
    passes.push(t.ms);
    value = t.value;
  }
  return { value, ms: median(passes), passes };
}

function main(): void {
  const g = time(generate);
  const scan = measure(() => discoverSkills({ scopes: [TREE] }));
  const base = measure(findAndRead);
  const skills = scan.value.skills.length;
  if (skills !== SKILLS || scan.value.skipped.length !== 0) {
    throw new Error(
      `expected ${SKILLS} skills and no skips, got ${skills} skills and ${scan.value.skipped.length} skips`,
    );
  }
  const scanRate = skills / (scan.ms / 1000);
  const baseRate = base.value.files / (base.ms / 1000);
  const mb = base.value.bytes / (1024 * 1024);
  const passes = (xs: number[]): string => xs.map((x) => fmt(x, 0)).join(', ');
  writeResult(
    'scan',
    [
      '# Scan benchmark',
      '',
      `${machineLine()}. Tree: ${SKILLS.toLocaleString('en')} skill folders in ${SKILLS / PER_GROUP} groups under bench/.work/scan-10k ` +
        `(${fmt(mb, 1)} MiB of SKILL.md, ~${BODY_BYTES} B bodies; ${g.ms > 1000 ? `generated in ${fmt(g.ms / 1000, 1)} s` : 'reused'}). ` +
        `Warm cache, median of ${PASSES} passes after one untimed pass, both methods in the same process run.`,
      '',
      '| method | median ms | passes (ms) | files/s |',
      '| --- | ---: | --- | ---: |',
      `| \`discoverSkills({ scopes: [dir] })\` (walk, confine, read, hash, parse, validate, dedup) | ${fmt(scan.ms, 0)} | ${passes(scan.passes)} | ${fmt(scanRate, 0)} skills/s |`,
      `| baseline: \`find DIR -name SKILL.md\` + readFileSync of each | ${fmt(base.ms, 0)} | ${passes(base.passes)} | ${fmt(baseRate, 0)} files/s |`,
      '',
      `Ratio: discovery takes ${fmt(scan.ms / base.ms, 2)}× the baseline's time (${fmt(((scan.ms - base.ms) / SKILLS) * 1000, 1)} µs more per skill).`,
    ].join('\n'),
  );
}

main();
