#!/usr/bin/env node
// The only job of this file: start the bundled CLI and turn its answer into an exit code. It is
// CommonJS (bin/package.json): an ES module entry alone costs ~10 ms of every start.
'use strict';
const { loadCli } = require('../dist/cli/launch.cjs');

// A failure while loading (a broken install) is reported with its stack: Node's own report of an
// uncaught error would quote the bundle's source line, which is the whole minified module.
function fail(err) {
  process.stderr.write(`error INTERNAL: ${err && err.stack ? err.stack : String(err)}\n`);
  process.exitCode = 70;
}

let cli;
try {
  cli = loadCli().cli;
} catch (err) {
  fail(err);
}
if (cli !== undefined)
  cli.main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  }, fail);
