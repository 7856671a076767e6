#!/usr/bin/env node
// The CLI, bundled by scripts/build-cli.mjs; this shim only finds it.
import { main } from '../dist/bundle/cli.js';

main(process.argv);
