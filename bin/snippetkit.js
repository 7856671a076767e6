#!/usr/bin/env node
// The compiled CLI does the work; this shim only finds it.
import { main } from '../dist/cli/main.js';

main(process.argv);
