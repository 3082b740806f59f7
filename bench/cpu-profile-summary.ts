// `npx tsx bench/cpu-profile-summary.ts <file.cpuprofile> [top=25] [filter] [fromMs]`: where a
// V8 CPU profile (node --cpu-prof, or BENCH_CPU_PROFILE_DIR) spent its time, as self
// and inclusive milliseconds per function, so a bench miss can name its hot spots.
// `filter` keeps only samples whose stack passes through a function whose
// "name file:line" contains it (e.g. "createProxy" or "proxy-server.ts"; "" for all);
// `fromMs` skips the profile's first milliseconds (start-up, a cassette's load).
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg, filter, fromArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: tsx bench/cpu-profile-summary.ts <file.cpuprofile> [top=25] [filter] [fromMs]');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const fromUs = Number(fromArg ?? 0) * 1000;
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const label = (node: ProfileNode): string => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? `${path.basename(url.replace(/^file:\/\//, ''))}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'} ${where}`.trim();
};
const stackOf = (id: number): string[] => {
  const labels: string[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) labels.push(label(byId.get(at)!));
  return labels;
};

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
let idle = 0;
const stacks = new Map<number, string[]>();
let elapsedUs = 0;
profile.samples.forEach((id, i) => {
  elapsedUs += profile.timeDeltas[i] ?? 0;
  if (elapsedUs < fromUs) return;
  const ms = (profile.timeDeltas[i] ?? 0) / 1000;
  let stack = stacks.get(id);
  if (!stack) stacks.set(id, (stack = stackOf(id)));
  if (filter && !stack.some((l) => l.includes(filter))) return;
  if (stack[0].startsWith('(idle)')) {
    idle += ms;
    return;
  }
  total += ms;
  self.set(stack[0], (self.get(stack[0]) ?? 0) + ms);
  for (const l of new Set(stack)) inclusive.set(l, (inclusive.get(l) ?? 0) + ms);
});

const show = (title: string, table: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [name, ms] of [...table].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${ms.toFixed(0).padStart(8)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${name}`);
  }
};
console.log(
  `${file}: ${total.toFixed(0)} ms busy, ${idle.toFixed(0)} ms idle${filter ? ` (stacks through "${filter}")` : ''}${fromUs ? ` from ${fromUs / 1000} ms` : ''}`,
);
show('self time', self);
show('inclusive time', inclusive);
