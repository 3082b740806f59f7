// Start-up of touchstone's commands against a bare `node -e 0`, in the same run: how long
// `touchstone --help` and the reference plugin (answering an empty request: stdin at its end)
// take from spawn to exit. Both run compiled when dist/ is current (bin/entry.js); the note says
// which. Rounds alternate the three commands; each figure is the median over rounds.
import path from 'node:path';
import { PROJECT_ROOT } from '../lib/project-files.js';
// @ts-expect-error bin/entry.js is plain JavaScript (it runs before tsx is registered)
import { isCurrent } from '../bin/entry.js';
import { timedRun } from './plugin-bench-fixture.js';
import type { ResultRow } from './result-table.js';

export const START_UP_RATIO_TARGET = 2;

const COMMANDS = {
  'node -e 0': [process.execPath, '-e', '0'],
  'touchstone --help': [process.execPath, path.join(PROJECT_ROOT, 'bin', 'touchstone.js'), '--help'],
  'protoc-gen-touchstone, empty request': [process.execPath, path.join(PROJECT_ROOT, 'bin', 'protoc-gen-touchstone.js')],
};
type Name = keyof typeof COMMANDS;

export async function measureStartUp(rounds: number, log: (line: string) => void): Promise<ResultRow[]> {
  const names = Object.keys(COMMANDS) as Name[];
  const times = new Map<Name, number[]>(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length];
      const result = await timedRun(COMMANDS[name], PROJECT_ROOT);
      if (result.code !== 0) throw new Error(`${name} exited with ${result.code}:\n${result.stderr}`);
      times.get(name)!.push(result.wallMs);
    }
  }
  const median = (name: Name) => {
    const sorted = [...times.get(name)!].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  };
  const node = median('node -e 0');
  log(`start-up, median of ${rounds}: ${names.map((name) => `${name} ${median(name).toFixed(1)} ms`).join(', ')}`);
  return (['touchstone --help', 'protoc-gen-touchstone, empty request'] as const).map((name) => {
    const part = name === 'touchstone --help' ? 'touchstone' : 'protoc-gen-touchstone';
    const ratio = median(name) / node;
    return {
      scenario: `start: ${name} / node -e 0`,
      value: `${median(name).toFixed(1)} ms`,
      baseline: `${node.toFixed(1)} ms`,
      ratio: ratio.toFixed(2),
      target: `<= ${START_UP_RATIO_TARGET}`,
      pass: ratio <= START_UP_RATIO_TARGET,
      note: isCurrent(PROJECT_ROOT, part) ? 'compiled (dist/)' : 'from the TypeScript sources: dist/ is missing or stale (npm run build)',
    };
  });
}
