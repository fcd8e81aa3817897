import type { Config } from "./config.ts";
import type { Db } from "./db/client.ts";
import type { UserRow } from "./db/schema/index.ts";
import type { Clock } from "./lib/clock.ts";
import type { Logger } from "./lib/log.ts";
import type { Mailer } from "./lib/mail/mailer.ts";

/**
 * Everything a request handler, job or CLI command may use, built once by
 * main.ts (or by test/helpers for each test). No module keeps state of its own.
 */
export interface Deps {
  db: Db;
  config: Config;
  clock: Clock;
  log: Logger;
  mailer: Mailer;
}

export type AppEnv = {
  Variables: {
    deps: Deps;
    /** Set by requireUser. */
    user: UserRow;
    sessionId: number;
  };
};
