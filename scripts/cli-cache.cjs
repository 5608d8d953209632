// Writes the V8 code cache of the bundled CLI (dist/cli/skilldex.cjs.v8cache; why: bin/skilldex.js).
// Run by scripts/build-cli.mjs in a fresh process. It loads the bundle as bin/skilldex.js does, runs
// what an agent runs one-shot, `search` (text and --json) and `fetch`, over the example library in a
// temporary folder it removes, so the functions they call are compiled, then saves the bytecode.
// Only those: every start reads the whole cache, and with --help, show and status compiled in too it
// was 20 % larger and a search ~3 % slower (instruction counts). Any command exiting other than 0
// fails the build: a bundle that does not run never ships.
'use strict';
const { spawnSync } = require('node:child_process');
const { mkdirSync, mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const {
  BUNDLE,
  HOOK_BUNDLE,
  HOOK_CLIENT_BUNDLE,
  cachePathOf,
  loadCli,
} = require('../bin/skilldex.js');

async function main() {
  const { cli, script } = loadCli(BUNDLE);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'skilldex-cli-cache-'));
  const catalog = path.join(tmp, 'catalog.sqlite');
  const examples = path.join(__dirname, '..', 'examples', 'skills');
  let out = '';
  const io = {
    stdout: (s) => (out += s),
    stderr: () => {},
    env: { HOME: tmp, PATH: process.env.PATH ?? '' },
    cwd: tmp,
    stderrIsTTY: false,
  };
  const step = async (argv) => {
    out = '';
    const code = await cli.run(argv, io);
    if (code !== 0) throw new Error(`skilldex ${argv.join(' ')} exited ${code}`);
    return out;
  };
  try {
    // Indexed in another process: operator commands' code stays out of the cache, which every
    // start reads and checks (a cache with index's code in it made every search slower).
    const index = spawnSync(
      process.execPath,
      [
        path.join(__dirname, '..', 'bin', 'skilldex.js'),
        'index',
        '--catalog',
        catalog,
        '--scope',
        examples,
        '--quiet',
      ],
      { env: io.env, cwd: tmp, encoding: 'utf8' },
    );
    if (index.status !== 0)
      throw new Error(`skilldex index exited ${index.status}: ${index.stderr}`);
    await step(['search', 'extract tables from a pdf', '--catalog', catalog, '--limit', '3']);
    const found = JSON.parse(
      await step([
        'search',
        'deploy an app to kubernetes',
        '--catalog',
        catalog,
        '--json',
        '--no-telemetry',
      ]),
    );
    const top = found.candidates[0];
    await step([
      'fetch',
      top.skill_id,
      '--revision',
      top.revision_id,
      '--generation',
      found.catalog_generation,
      '--catalog',
      catalog,
      '--no-telemetry',
    ]);
    await hookCache(catalog, tmp);
    clientCache();
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  writeFileSync(cachePathOf(BUNDLE), script.createCachedData());
}

// The prompt hook's bundle (dist/cli/hook.cjs, issue 35) gets its own cache, made the same way: it
// answers prompts as Claude Code sends them, with the command line init writes, so the functions a
// hook run calls are compiled: one that gets suggestions, one that gets none, and three that take
// the paths real prompts often take — misspelt words (fuzzy expansion), an excluded span, and
// text outside ASCII (the Unicode tokenizer). A function missing from the cache is compiled on the
// prompt that first needs it.
async function hookCache(catalog, tmp) {
  const { cli, script } = loadCli(HOOK_BUNDLE);
  // The user config init writes, which every hook run reads: its parse is compiled in too.
  const configDir = path.join(tmp, '.config', 'skilldex');
  mkdirSync(configDir, { recursive: true });
  writeFileSync(
    path.join(configDir, 'config.toml'),
    `catalog = ${JSON.stringify(catalog)}\n\n[library]\nscopes = [${JSON.stringify(tmp)}]\n`,
  );
  for (const prompt of [
    'extract the tables from this pdf file',
    'what is the weather today',
    'extrct the tabels from this pdff fle',
    'turn the pdf report into a spreadsheet, not about images',
    '\u5e2e\u6211 extract tables \u2014 from a pdf',
  ]) {
    let out = '';
    const event = JSON.stringify({
      hook_event_name: 'UserPromptSubmit',
      session_id: `cache-${prompt.length}`,
      cwd: tmp,
      prompt,
    });
    const code = await cli.runFastHook(
      cli.parseFastHookArgv(['hook', 'claude-code', '--catalog', catalog]),
      {
        stdout: (s) => (out += s),
        stderr: () => {},
        env: { HOME: tmp, PATH: process.env.PATH ?? '' },
        cwd: tmp,
        stderrIsTTY: false,
        readStdin: async () => event,
        releaseStdin: () => {},
      },
    );
    if (code !== 0) throw new Error(`skilldex hook exited ${code}`);
    if (prompt === 'extract the tables from this pdf file' && out === '')
      throw new Error(`skilldex hook suggested nothing for ${JSON.stringify(prompt)}`);
  }
  writeFileSync(cachePathOf(HOOK_BUNDLE), script.createCachedData());
}

// The hook server's client (dist/cli/hook-client.cjs): a small file whose functions run once per
// process, so its cache holds what loading compiles; the rest is compiled as it runs.
function clientCache() {
  const { script } = loadCli(HOOK_CLIENT_BUNDLE);
  writeFileSync(cachePathOf(HOOK_CLIENT_BUNDLE), script.createCachedData());
}

main().catch((err) => {
  console.error(`cli-cache: ${err.stack ?? err}`);
  process.exit(1);
});
