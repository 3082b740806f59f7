// The interaction limit resource: `{limit, origin, expires_at}`, or `{}` when none is active.
import type { Faults } from '../../faults.js';
import type { Representer } from '../../representations.js';
import type { ActiveLimit } from './limit-state.js';

export function representLimit(base: Representer, faults: Faults, limit: ActiveLimit | null): Record<string, unknown> | null {
  if (limit === null) return faults.on('representations.limit-none-as-null') ? null : {};
  return {
    limit: limit.limit,
    ...(!faults.on('representations.limit-without-origin') && { origin: limit.origin }),
    expires_at: base.timestamp(limit.expiresAt),
  };
}
