#!/usr/bin/env node
// The only job of this file: start the bundled CLI and turn its answer into an exit code. It is
// CommonJS (bin/package.json): an ES module entry alone costs ~10 ms of every start.
'use strict';
const { loadCli } = require('../dist/cli/launch.cjs');

// A failure while loading (a broken install) is reported with its stack, without the lines too long
// to read: V8 puts the offending source line of a SyntaxError in the stack, and a line of the
// bundle is most of the minified module.
function fail(err) {
  const text = err && err.stack ? String(err.stack) : String(err);
  const lines = text.split('\n').filter((line) => line.length <= 400);
  process.stderr.write(`error INTERNAL: ${lines.slice(0, 40).join('\n')}\n`);
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
