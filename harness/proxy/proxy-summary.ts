// The end-of-run summary a person reads: what each cassette served and recorded, the
// cassettes record mode once kept as they were, every miss with its reason, interactions
// never asked for, verify differences, and why the proxy exits 1 when it does.
import type { ProxySummary } from './proxy-options.js';
import { plural, someOf } from '../core/plural.js';
import { readablePlaceholders } from '../cassette/placeholders.js';

export function formatProxySummary(summary: ProxySummary): string {
  const total = (key: 'served' | 'recorded') => summary.cassettes.reduce((sum, c) => sum + c[key], 0);
  const lines = [
    `touchstone: proxy (${summary.mode}): ${plural(summary.cassettes.length, 'cassette')}, ${plural(total('served'), 'answer')} replayed, ${total('recorded')} recorded`,
  ];
  const kept = summary.cassettes.filter((c) => c.kept).map((c) => c.name);
  if (kept.length === 1)
    lines.push(`  ${kept[0]}: already recorded, replayed and kept as it was (record mode once; --record-mode all re-records it)`);
  else if (kept.length > 1)
    lines.push(
      `  ${kept.length} cassettes already recorded, replayed and kept as they were (record mode once; --record-mode all re-records them): ${someOf(kept, 5)}`,
    );
  const dropped = summary.cassettes.filter((c) => c.dropped).map((c) => c.name);
  if (dropped.length > 0)
    lines.push(
      `  ${plural(dropped.length, 'recording')} dropped, ${dropped.length === 1 ? 'its case' : 'their cases'} reached no outcome (interrupted or ERROR), what was recorded before kept: ${someOf(dropped, 5)}`,
    );
  for (const c of summary.cassettes) {
    if (c.unused.length)
      lines.push(`  ${c.name}: ${plural(c.unused.length, 'recorded interaction')} never asked for (seq ${c.unused.join(', ')})`);
  }
  const misses = summary.misses.length + summary.unlistedMisses;
  if (misses)
    lines.push(`  ${plural(misses, 'miss', 'misses')}${summary.unlistedMisses ? ` (the first ${summary.misses.length} listed)` : ''}:`);
  for (const m of summary.misses) lines.push(`    ${m.cassette}: ${m.method} ${readablePlaceholders(m.url)}: ${m.reason}`);
  if (misses && kept.length)
    lines.push(
      '  record mode once forwards nothing to a cassette already recorded: --record-mode new_episodes records them, all re-records everything',
    );
  if (summary.verify.length)
    lines.push(
      `  ${plural(summary.verify.length, 'interaction')} ${summary.verify.length === 1 ? 'differs' : 'differ'} from the recording:`,
    );
  for (const v of summary.verify) {
    lines.push(`    ${v.cassette} #${v.seq} ${v.method} ${readablePlaceholders(v.url)}`);
    for (const d of v.differences)
      lines.push(`      ${d.kind} ${d.path}${d.kind === 'changed' ? `: ${JSON.stringify(d.before)} -> ${JSON.stringify(d.after)}` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

/** What makes a stopping proxy exit 1: --fail-on-miss and --fail-on-unused. */
export interface ProxyGates {
  failOnMiss?: boolean;
  failOnUnused?: boolean;
}

/** The proxy's exit code at its stop, and the reasons for a 1, one per gate that failed. */
export function proxyExit(summary: ProxySummary, gates: ProxyGates): { code: 0 | 1; reasons: string[] } {
  const reasons: string[] = [];
  const misses = summary.misses.length + summary.unlistedMisses;
  if (gates.failOnMiss && misses) reasons.push(`${plural(misses, 'request')} missed (--fail-on-miss)`);
  const unused = summary.cassettes.reduce((sum, c) => sum + c.unused.length, 0);
  if (gates.failOnUnused && unused) reasons.push(`${plural(unused, 'recorded interaction')} never asked for (--fail-on-unused)`);
  return { code: reasons.length ? 1 : 0, reasons };
}

/** The summary, with the line that says why the exit code is 1 when it is. */
export function formatProxyStop(summary: ProxySummary, gates: ProxyGates): { text: string; code: 0 | 1 } {
  const { code, reasons } = proxyExit(summary, gates);
  return { text: formatProxySummary(summary) + (code ? `touchstone: exit 1: ${reasons.join('; ')}\n` : ''), code };
}
