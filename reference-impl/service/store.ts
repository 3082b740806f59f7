// The service's whole state, built from the world: read-only lookups, the clock, and
// the two mutable parts of this slice. reset() returns all of it to the world.
import { createClock, type Clock } from './clock.js';
import { createDirectory, type Directory } from './directory.js';
import { createInteractionLimitState, type InteractionLimitState } from './interaction-limit-state.js';
import { createIssueState, type IssueState } from './issue-state.js';
import type { World } from './world-model.js';

export interface Store {
  readonly directory: Directory;
  readonly clock: Clock;
  readonly limits: InteractionLimitState;
  readonly issues: IssueState;
  reset(): void;
}

export function createStore(world: World): Store {
  const directory = createDirectory(world);
  const clock = createClock(world.clock.start);
  const limits = createInteractionLimitState(directory, clock);
  const issues = createIssueState(directory, clock);
  return {
    directory,
    clock,
    limits,
    issues,
    reset() {
      // The clock first: the world's limits expire relative to its start.
      clock.reset();
      limits.reset();
      issues.reset();
    },
  };
}
