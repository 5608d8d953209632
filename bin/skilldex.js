#!/usr/bin/env node
// The only job of this file: start the bundled CLI and turn its answer into an exit code. It is
// CommonJS (bin/package.json): an ES module entry alone costs ~10 ms of every start.
'use strict';
const { loadCli } = require('../dist/cli/launch.cjs');

loadCli()
  .cli.main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
