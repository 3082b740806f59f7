// The optional control API of a target (/_conformance/*): capabilities, reset, clock,
// injected failures, and the built-in faults and variations of the reference (what the kill
// matrix switches).
// A target without it simply has no capabilities; cases that need one are SKIP.
import { HarnessError } from '../core/errors.js';
import type { Transport } from './transport.js';

export interface TargetControl {
  capabilities(): Promise<Set<string>>;
  reset(): Promise<void>;
  clock(move: { advance_seconds?: number; set?: string }): Promise<void>;
  /** Switches exactly these built-in faults on (capability control.faults); a reset switches them off. */
  faults(ids: string[]): Promise<void>;
  /** Switches exactly these built-in variations on (capability control.variants); a reset switches them off. */
  variants(ids: string[]): Promise<void>;
  /** Makes the target's next operations of each kind fail (capability control.failures): `{storage: 1}`, `{internal: 1}`. */
  inject(failures: { storage?: number; internal?: number; maintenance?: number }): Promise<void>;
}

export function createTargetControl(baseUrl: string, transport: Transport, userAgent: string): TargetControl {
  const base = baseUrl.replace(/\/+$/, '');
  const call = async (method: string, path: string, body?: unknown) => {
    const headers: [string, string][] = [
      ['User-Agent', userAgent],
      ['Accept', 'application/json'],
    ];
    if (body !== undefined) headers.push(['Content-Type', 'application/json']);
    try {
      return await transport({
        method,
        url: base + path,
        headers,
        body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
      });
    } catch (error) {
      // Not a spec requirement the target broke: the harness's own API, named as such.
      if (error instanceof HarnessError && error.code === 'TARGET_IO')
        throw new HarnessError('TARGET_IO', `the control API (${method} ${path}) gave no answer: ${error.message}`);
      throw error;
    }
  };
  // The body says why (a replaying proxy's miss names the missing recording).
  const expectOk = (what: string, response: { status: number; body: Buffer }) => {
    if (response.status < 300) return;
    const text = response.body.toString('utf8');
    let detail = text.slice(0, 300).trim();
    try {
      const parsed = JSON.parse(text);
      detail = String(parsed.error ?? parsed.message ?? detail);
    } catch {
      // not JSON: the text itself
    }
    throw new HarnessError('TARGET_IO', `control API ${what} answered ${response.status}${detail ? `: ${detail}` : ''}`);
  };
  return {
    async capabilities() {
      const response = await call('GET', '/_conformance/capabilities');
      if (response.status !== 200) return new Set();
      try {
        const list = JSON.parse(response.body.toString('utf8')).capabilities;
        return new Set(Array.isArray(list) ? list.filter((c: unknown) => typeof c === 'string') : []);
      } catch {
        return new Set();
      }
    },
    async reset() {
      expectOk('reset', await call('POST', '/_conformance/reset'));
    },
    async clock(move) {
      expectOk('clock', await call('POST', '/_conformance/clock', move));
    },
    async faults(ids) {
      expectOk('faults', await call('POST', '/_conformance/faults', { faults: ids }));
    },
    async variants(ids) {
      expectOk('variants', await call('POST', '/_conformance/variants', { variants: ids }));
    },
    async inject(failures) {
      expectOk('failures', await call('POST', '/_conformance/failures', failures));
    },
  };
}
