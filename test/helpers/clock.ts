import type { Clock } from "../../src/lib/clock.ts";

/** A clock the test moves by hand, so trials, renewals and expiries are tested without sleeping. */
export interface TestClock extends Clock {
  set(date: Date | string | number): void;
  advance(ms: number): void;
}

export function createTestClock(start: Date | string | number = "2026-01-15T10:00:00.000Z"): TestClock {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    set: (d) => {
      t = new Date(d).getTime();
    },
    advance: (ms) => {
      t += ms;
    },
  };
}
