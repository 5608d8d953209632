// Bundles the command line for start-up (issue #12): src/cli/main.ts and everything it loads,
// commander and better-sqlite3's JavaScript included, into one CommonJS file, dist/cli/skilldex.cjs,
// which bin/skilldex.js loads. Then scripts/cli-cache.cjs runs the
// bundle over the example library in a child process and writes the V8 code cache beside it.
// Why a bundle at all, with the measurements: bin/skilldex.js and bench/results/startup.md.
// Run by `npm run build` after tsc; the library API stays dist/index.js.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outfile = path.join(repo, 'dist', 'cli', 'skilldex.cjs');
const packageVersion = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')).version;

// The build's name (src/version.ts BUILD): 12 hex digits of a SHA-256 over the version and every
// file under src/ (path and bytes, in path order). The hook server's socket is named by it, so the
// hook's client never talks to a server built from other sources.
function buildId() {
  const hash = createHash('sha256').update(packageVersion);
  const walk = (dir) =>
    readdirSync(dir, { withFileTypes: true })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .forEach((e) => {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else hash.update(`\0${path.relative(repo, p)}\0`).update(readFileSync(p));
      });
  walk(path.join(repo, 'src'));
  return hash.digest('hex').slice(0, 12);
}
const BUILD = buildId();

// commander requires node:child_process at load, for executable subcommands skilldex never has;
// loading it costs ~6 ms of every start. Commander's copy gets `spawn` on first call instead.
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}commander${path.sep}`)
        ? { path: 'commander-child-process', namespace: 'skilldex-lazy' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'skilldex-lazy' }, () => ({
      contents: "exports.spawn = (...a) => require('node:child_process').spawn(...a);",
      loader: 'js',
    }));
  },
};

// The prompt hook's own bundle (issue 35): src/cli/hook-main.ts and what the hook imports, without
// commander and the other commands. bin/skilldex.js loads it for `skilldex hook …`, the command a
// host runs on every prompt; its start is most of the hook's time (bench/results/hook.md).
const hookOutfile = path.join(repo, 'dist', 'cli', 'hook.cjs');

// Both bundles are built alike (the comments below say why each option); only the entry differs.
const bundles = [
  {
    outfile,
    contents: "export { main } from './main.ts';\nexport { run } from './program.ts';\n",
    sourcefile: 'src/cli/bundle.ts',
  },
  {
    outfile: hookOutfile,
    contents:
      "export { hookMain, logHookFailure, parseFastHookArgv, runFastHook } from './hook-main.ts';\n",
    sourcefile: 'src/cli/hook-bundle.ts',
    // The TOML parser reads the user config (init writes one) on every prompt: in the hook's bundle
    // it comes from the code cache instead of node_modules (~7 ms of CPU per run with a config).
    inline: ['smol-toml'],
  },
  {
    // The hook server's client (src/cli/hook-client.ts): what bin/skilldex.js loads first for
    // `skilldex hook …`. When the user's hook server answers, this file is all of skilldex a prompt
    // loads (bench/results/hook.md).
    outfile: path.join(repo, 'dist', 'cli', 'hook-client.cjs'),
    contents: "export { hookClient } from './hook-client.ts';\n",
    sourcefile: 'src/cli/hook-client-bundle.ts',
  },
];

// Bundles a package the source loads through `createRequire(import.meta.url)('<name>')` (which
// esbuild cannot follow) by rewriting that call to `require('<name>')` while bundling: the same
// module, taken from the bundle. A source that no longer has the call simply keeps its own load.
function inlineRequires(names) {
  return {
    name: 'inline-requires',
    setup(b) {
      b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
        let text = readFileSync(args.path, 'utf8');
        let changed = false;
        for (const name of names) {
          const call = `createRequire(import.meta.url)('${name}')`;
          if (!text.includes(call)) continue;
          text = text.split(call).join(`require('${name}')`);
          changed = true;
        }
        return changed ? { contents: text, loader: 'ts' } : undefined;
      });
    },
  };
}

for (const b of bundles) await bundleOne(b);

async function bundleOne({ outfile, contents, sourcefile, inline = [] }) {
  await build({
    stdin: {
      contents,
      resolveDir: path.join(repo, 'src', 'cli'),
      sourcefile,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    // Left to require() from node_modules, when a command first needs them: what only long-running or
    // rarer commands use (the MCP SDK with zod, hono for the explorer, chokidar for --watch, the YAML
    // and TOML parsers, which the source loads through createRequire anyway), and pg-native, an
    // optional dependency with its own addon. Bundled, their modules' export tables alone were
    // built at every start. commander, better-sqlite3's JavaScript and stemmer (ES module only) are in.
    external: [
      '@modelcontextprotocol/sdk',
      'zod',
      'hono',
      '@hono/node-server',
      'chokidar',
      'yaml',
      'smol-toml',
      'pg-native',
    ].filter((name) => !inline.includes(name)),
    // Modules find files beside themselves through import.meta.url (the package root, the explorer's
    // assets, CommonJS packages through createRequire): in the bundle that is dist/cli/skilldex.cjs,
    // the depth of dist/cli/*.js, so every relative path they build stays right.
    // The URL is spelled out by hand rather than with pathToFileURL, whose first call (URL parsing)
    // cost every start ~0.35 ms: encodeURI escapes all but what a path may hold, and of what it
    // leaves, only ? and # would end a URL's path.
    // The version is package.json's, read here once instead of at every start (src/version.ts).
    define: {
      'import.meta.url': '__skilldexBundleUrl',
      __SKILLDEX_VERSION__: JSON.stringify(packageVersion),
      __SKILLDEX_BUILD__: JSON.stringify(BUILD),
    },
    banner: {
      js: "const __skilldexBundleUrl = 'file://' + encodeURI(__filename).replace(/[?#]/g, encodeURIComponent);",
    },
    plugins: [lazyChildProcess, ...(inline.length > 0 ? [inlineRequires(inline)] : [])],
    minifySyntax: true,
    // Short local names: a smaller file to read and a smaller code cache to check (~1.9 ms of a
    // one-shot search). Stacks map back through the linked source map (--enable-source-maps).
    minifyIdentifiers: true,
    // No comments and no white space, and every character outside ASCII escaped: the launcher reads
    // the file as latin1, which V8 keeps as a one-byte string (a UTF-8 read of the commented bundle
    // cost ~9 ms of CPU per start). Licence comments go to skilldex.cjs.LEGAL.txt beside it.
    minifyWhitespace: true,
    charset: 'ascii',
    legalComments: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });

  // The launcher's latin1 read is exact only for ASCII: refuse to ship anything else.
  const written = readFileSync(outfile);
  const wide = written.findIndex((b) => b > 0x7f);
  if (wide !== -1) {
    console.error(`build-cli: ${outfile} has a non-ASCII byte at offset ${wide}`);
    process.exit(1);
  }

  // The launcher runs the bundle as a vm script, which has no loader for import(): every module has to
  // be in the bundle or required (esbuild keeps import() only for what it leaves outside).
  const imports = written.toString('latin1').match(/\bimport\((["'`])[^"'`]*\1\)/g);
  if (imports) {
    console.error(
      `build-cli: the bundle keeps import() of ${imports.join(', ')}: require it instead`,
    );
    process.exit(1);
  }

  // A stale cache of an earlier bundle would only be rejected, but never ship one.
  rmSync(outfile + '.v8cache', { force: true });
}

const cache = spawnSync(process.execPath, [path.join(repo, 'scripts', 'cli-cache.cjs')], {
  stdio: 'inherit',
});
if (cache.status !== 0) {
  console.error('build-cli: writing the code cache failed (the bundle did not run)');
  process.exit(1);
}
