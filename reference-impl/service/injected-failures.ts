// Failures the harness injects through the control API (`POST /_conformance/failures`), so
// that a suite can see how the service answers when its own machinery fails: the spec lists
// 503 for a file deletion and 500 on the assistant endpoints, which a healthy reference
// never has a reason to give. Each kind counts down: `{"storage": 2}` makes the next two
// repository writes fail (503), `{"internal": 1}` the next assistant request (500),
// `{"maintenance": 1}` the next source-import request (503), then they work again. A reset
// clears them.
import { FAILURE_KINDS, type FailureKind } from '../../lib/control-contract.js';

export { FAILURE_KINDS, type FailureKind };

export interface InjectedFailures {
  /** Replaces the pending count of each kind named. */
  set(counts: Partial<Record<FailureKind, number>>): void;
  pending(): Record<FailureKind, number>;
  /** Whether the operation of this kind about to run must fail (spending one). */
  take(kind: FailureKind): boolean;
  reset(): void;
}

export function createInjectedFailures(): InjectedFailures {
  const none = () => Object.fromEntries(FAILURE_KINDS.map((kind) => [kind, 0])) as Record<FailureKind, number>;
  let counts = none();
  return {
    set(next) {
      counts = { ...counts, ...next };
    },
    pending: () => ({ ...counts }),
    take(kind) {
      if (counts[kind] === 0) return false;
      counts[kind] -= 1;
      return true;
    },
    reset() {
      counts = none();
    },
  };
}
