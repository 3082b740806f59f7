#!/usr/bin/env node
// The touchstone command: compiled (dist/) when built and current, else the sources (bin/entry.js).
import { start } from './entry.js';

const { entry, part } = await start('touchstone', {
  entry: () => import('../harness/cli/main.ts'),
  part: (file) => import(`../harness/cli/${file}.ts`),
});
await entry.main(process.argv.slice(2), part);
