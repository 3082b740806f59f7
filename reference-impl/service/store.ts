// The service's whole state, built from the world: read-only lookups, the clock, the
// faults switched on, and the two mutable parts of this slice. reset() returns all of it
// to the world (and the faults to those the service started with).
import { createClock, type Clock } from './clock.js';
import { createDirectory, type Directory } from './directory.js';
import { createFaults, type Faults, type ServiceFault } from './faults.js';
import { createInteractionLimitState, type InteractionLimitState } from './interaction-limit-state.js';
import { createIssueState, type IssueState } from './issue-state.js';
import type { World } from './world-model.js';

export interface Store {
  readonly directory: Directory;
  readonly clock: Clock;
  readonly limits: InteractionLimitState;
  readonly issues: IssueState;
  /** The built-in faults switched on; a reset leaves only those the service started with. */
  readonly faults: Faults;
  reset(): void;
}

export function createStore(world: World, startFaults: readonly ServiceFault[] = []): Store {
  const directory = createDirectory(world);
  const clock = createClock(world.clock.start);
  const faults = createFaults(startFaults);
  const limits = createInteractionLimitState(directory, clock, faults);
  const issues = createIssueState(directory, clock);
  return {
    directory,
    clock,
    limits,
    issues,
    faults,
    reset() {
      faults.reset();
      // The clock first: the world's limits expire relative to its start.
      clock.reset();
      limits.reset();
      issues.reset();
    },
  };
}
