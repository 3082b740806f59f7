// The interaction limit resource: `{limit, origin, expires_at}`, or `{}` when none is active.
import type { Faults } from '../../faults.js';
import type { Representer } from '../../representations.js';
import type { Variants } from '../../variants.js';
import type { ActiveLimit } from './limit-state.js';

export function representLimit(
  base: Representer,
  switches: { faults: Faults; variants: Variants },
  limit: ActiveLimit | null,
): Record<string, unknown> | null {
  const { faults, variants } = switches;
  if (limit === null) return faults.on('representations.limit-none-as-null') ? null : {};
  return {
    limit: limit.limit,
    ...(!faults.on('representations.limit-without-origin') && { origin: limit.origin }),
    expires_at: variants.on('limits.expires-at-offset') ? withZeroOffset(limit.expiresAt) : base.timestamp(limit.expiresAt),
  };
}

/** UTC written as milliseconds and the offset +00:00 (2026-06-02T12:00:00.000+00:00), another ISO 8601 form of the same instant. */
function withZeroOffset(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/Z$/, '+00:00');
}
