import type { Deps } from "../deps.ts";

/**
 * A timed task of the server (src/jobs/scheduler.ts). Each lives beside its
 * domain in a `<what>.job.ts` file; src/jobs/index.ts lists them.
 */
export type Job = {
  name: string;
  everyMs: number;
  /** Also run once shortly after start (a missed renewal while the box was down). */
  runAtStart?: boolean;
  run(deps: Deps): Promise<unknown> | unknown;
};
