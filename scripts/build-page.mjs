// Builds the explorer page (issue 15): bundles web/main.ts (with markdown-it and uPlot) into
// dist/explorer/assets/app.js and its styles into app.css, and copies index.html and favicon.svg beside them.
// No CDN and no inline code: the page loads only these files. Run by `npm run build`; tests run
// `node scripts/build-page.mjs OUT_DIR` to build a private copy.
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Bundles the page into `out` (default dist/explorer/assets); resolves when the files are written. */
export async function buildPage(out = path.join(repo, 'dist', 'explorer', 'assets')) {
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: { app: path.join(repo, 'web', 'main.ts') },
    bundle: true,
    format: 'esm',
    // The skill page's Markdown renderer and chart load as their own chunk, on that page only.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    target: ['es2022'],
    minify: true,
    sourcemap: false,
    legalComments: 'eof',
    outdir: out,
    logLevel: 'warning',
  });
  for (const f of ['index.html', 'favicon.svg'])
    copyFileSync(path.join(repo, 'web', f), path.join(out, f));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  await buildPage(process.argv[2] ? path.resolve(process.argv[2]) : undefined);
