import { runMigrations } from "../src/db/migrate.ts";
import type { Deps } from "../src/deps.ts";
import { createLogger } from "../src/lib/log.ts";
import { buildDeps } from "../src/server.ts";
import { configFor, type GlobalOptions } from "./index.ts";

/**
 * The server's own dependencies for one command: the same database (migrated
 * first, like the server does), mailer and Stripe client. Log lines go to
 * stderr, warnings and errors only (debug with LOG_LEVEL=debug), so stdout
 * carries nothing but the command's output (`--json` stays parseable).
 * The database is closed when the command ends, whatever happens.
 */
export async function withDeps<T>(opts: GlobalOptions, fn: (deps: Deps) => Promise<T> | T): Promise<T> {
  const config = configFor(opts);
  const log = createLogger(config.logLevel === "debug" ? "debug" : "warn", (line) => process.stderr.write(`${line}\n`));
  const deps = buildDeps(config, log);
  try {
    runMigrations(deps.db);
    return await fn(deps);
  } finally {
    deps.db.$client.close();
  }
}
