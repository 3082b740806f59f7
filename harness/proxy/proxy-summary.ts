// The end-of-run summary a person reads: what each cassette served and recorded (verify:
// what it forwarded and how the answers compared), the cassettes record mode once kept as
// they were, every miss with its reason, interactions never asked for, verify differences,
// and why the proxy exits 1 when it does.
import type { ProxyMode, ProxySummary, VerifyCounts } from './proxy-options.js';
import { HarnessError } from '../core/errors.js';
import { plural, someOf } from '../core/plural.js';
import { readablePlaceholders } from '../cassette/placeholders.js';

/** Verify's forwarded requests that were never compared: the target failed, or the client left first. */
const uncompared = (v: VerifyCounts) => v.forwarded - v.matched - v.differed - v.missed;

/** What verify did with what it forwarded: it answers nothing from the recording, so nothing is "replayed". */
function verifiedLine(v: VerifyCounts): string {
  const left = uncompared(v);
  return (
    `${plural(v.forwarded, 'request')} forwarded: ${v.matched} matched the recording, ${v.differed} differed from it, ${v.missed} had no recording` +
    (left ? `, ${left} not compared (the target failed, or the client left before the whole answer)` : '')
  );
}

export function formatProxySummary(summary: ProxySummary): string {
  const total = (key: 'served' | 'recorded') => summary.cassettes.reduce((sum, c) => sum + c[key], 0);
  const counts = summary.verified
    ? verifiedLine(summary.verified)
    : `${plural(total('served'), 'answer')} replayed, ${total('recorded')} recorded`;
  const lines = [`touchstone: proxy (${summary.mode}): ${plural(summary.cassettes.length, 'cassette')}, ${counts}`];
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

/** What makes a stopping proxy exit 1: --fail-on-miss, --fail-on-unused and (verify) --fail-on-diff. */
export interface ProxyGates {
  failOnMiss?: boolean;
  failOnUnused?: boolean;
  /**
   * Verify: any answer that did not match the recording. Decision: that includes a request the
   * recording has no answer to (a replay of it would miss) and an answer never compared (the
   * target failed, or the client left first): verify passes only when every answer it
   * forwarded was shown to match.
   */
  failOnDiff?: boolean;
}

/**
 * The gates a mode can take. Decision: --fail-on-diff is verify's; with another mode, which
 * compares nothing, only its default (true) is accepted (it says nothing there, as --record-mode none
 * says nothing more with replay), and --no-fail-on-diff is a usage error.
 */
export function checkProxyGates(mode: ProxyMode, gates: ProxyGates): void {
  if (mode !== 'verify' && gates.failOnDiff === false)
    throw new HarnessError('USAGE', `--no-fail-on-diff goes with --mode verify; --mode ${mode} compares no answers with a recording`);
}

/** The proxy's exit code at its stop, and the reasons for a 1, one per gate that failed. */
export function proxyExit(summary: ProxySummary, gates: ProxyGates): { code: 0 | 1; reasons: string[] } {
  const reasons: string[] = [];
  const verified = summary.verified;
  // Verify's requests with no recording are its misses: --fail-on-miss counts them too.
  const misses = summary.misses.length + summary.unlistedMisses + (verified?.missed ?? 0);
  if (gates.failOnMiss && misses) reasons.push(`${plural(misses, 'request')} missed (--fail-on-miss)`);
  const unused = summary.cassettes.reduce((sum, c) => sum + c.unused.length, 0);
  if (gates.failOnUnused && unused) reasons.push(`${plural(unused, 'recorded interaction')} never asked for (--fail-on-unused)`);
  if (gates.failOnDiff && verified) {
    const left = uncompared(verified);
    const failed = [
      verified.differed && `${plural(verified.differed, 'answer')} differed from the recording`,
      verified.missed && `${plural(verified.missed, 'request')} had no recording`,
      left && `${plural(left, 'answer')} not compared`,
    ].filter((part): part is string => typeof part === 'string');
    if (failed.length) reasons.push(`${failed.join(', ')} (--fail-on-diff)`);
  }
  return { code: reasons.length ? 1 : 0, reasons };
}

/** The summary, with the line that says why the exit code is 1 when it is. */
export function formatProxyStop(summary: ProxySummary, gates: ProxyGates): { text: string; code: 0 | 1 } {
  const { code, reasons } = proxyExit(summary, gates);
  return { text: formatProxySummary(summary) + (code ? `touchstone: exit 1: ${reasons.join('; ')}\n` : ''), code };
}
