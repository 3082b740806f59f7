#!/usr/bin/env node
// The touchstone command. The project ships TypeScript; tsx compiles it on the fly.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../harness/cli/main.ts');
await main(process.argv.slice(2));
