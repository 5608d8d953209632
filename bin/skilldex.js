#!/usr/bin/env node
// The only job of this file: hand argv to the CLI and turn its answer into an exit code.
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
