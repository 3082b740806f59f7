#!/usr/bin/env node
// protoc-gen-touchstone, the reference code-generator plugin (reference-impl/plugin/README.md).
// The project ships TypeScript; tsx compiles it on the fly.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../reference-impl/plugin/main.ts');
process.exitCode = await main({ argv: process.argv.slice(2), stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
