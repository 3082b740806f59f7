// The end-of-run summary a person reads: what each cassette served and recorded, every
// miss with its reason, interactions never asked for, and verify differences.
import type { ProxySummary } from './proxy-options.js';
import { plural } from '../core/plural.js';

export function formatProxySummary(summary: ProxySummary): string {
  const total = (key: 'served' | 'recorded') => summary.cassettes.reduce((sum, c) => sum + c[key], 0);
  const lines = [
    `touchstone: proxy (${summary.mode}): ${plural(summary.cassettes.length, 'cassette')}, ${plural(total('served'), 'answer')} replayed, ${total('recorded')} recorded`,
  ];
  for (const c of summary.cassettes) {
    if (c.unused.length)
      lines.push(`  ${c.name}: ${plural(c.unused.length, 'recorded interaction')} never asked for (seq ${c.unused.join(', ')})`);
  }
  const misses = summary.misses.length + summary.unlistedMisses;
  if (misses)
    lines.push(`  ${plural(misses, 'miss', 'misses')}${summary.unlistedMisses ? ` (the first ${summary.misses.length} listed)` : ''}:`);
  for (const m of summary.misses) lines.push(`    ${m.cassette}: ${m.method} ${m.url}: ${m.reason}`);
  if (summary.verify.length)
    lines.push(
      `  ${plural(summary.verify.length, 'interaction')} ${summary.verify.length === 1 ? 'differs' : 'differ'} from the recording:`,
    );
  for (const v of summary.verify) {
    lines.push(`    ${v.cassette} #${v.seq} ${v.method} ${v.url}`);
    for (const d of v.differences)
      lines.push(`      ${d.kind} ${d.path}${d.kind === 'changed' ? `: ${JSON.stringify(d.before)} -> ${JSON.stringify(d.after)}` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}
