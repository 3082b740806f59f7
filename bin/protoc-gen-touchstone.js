#!/usr/bin/env node
// protoc-gen-touchstone, the reference code-generator plugin (reference-impl/plugin/README.md):
// compiled (dist/) when built and current, else the sources (bin/entry.js).
import { start } from './entry.js';

const { entry } = await start('protoc-gen-touchstone', { entry: () => import('../reference-impl/plugin/main.ts') });
process.exitCode = await entry.main({ argv: process.argv.slice(2), stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
