import { closeDb } from "../src/db/client.ts";
import { migrateWithBackup, refuseMissing, requireCurrentSchema, schemaState } from "../src/db/schema-guard.ts";
import type { Deps } from "../src/deps.ts";
import { createLogger } from "../src/lib/log.ts";
import { buildDeps } from "../src/build-deps.ts";
import { configFor, type GlobalOptions } from "./options.ts";

/**
 * How a command may open the database. Only `serve` and `migrate` migrate a
 * database that holds data; `create` (users create) may create a missing
 * one and set up its schema; `allowBehind` (backup) copies an older schema as it is.
 */
export type OpenRules = { create?: boolean; allowBehind?: boolean };

/**
 * A command's PostgreSQL pool: Bun's client opens its whole pool at the first
 * query, and a command runs one thing at a time (a transaction and a read
 * beside it at most), where a server's pool of 10 cost PostgreSQL ten
 * connections for each command run beside the servers.
 */
const CLI_POOL = { max: 2 };

/**
 * The server's own dependencies for one command: the same database, mailer
 * and Stripe client. Log lines go to stderr, warnings and errors only (debug
 * with LOG_LEVEL=debug), so stdout carries nothing but the command's output
 * (`--json` stays parseable). The database is closed when the command ends,
 * whatever happens.
 */
export async function withDeps<T>(opts: GlobalOptions, fn: (deps: Deps) => Promise<T> | T, rules: OpenRules = {}): Promise<T> {
  const config = configFor(opts);
  if (!rules.create) refuseMissing(config.databaseLabel);
  const log = createLogger(config.logLevel === "debug" ? "debug" : "warn", (line) => process.stderr.write(`${line}\n`), config.logFormat);
  const deps = await buildDeps(config, log, undefined, CLI_POOL);
  try {
    if (rules.create && (await schemaState(deps.db)).status === "empty") await migrateWithBackup(deps.db, config.databaseLabel, config.dataDir);
    await requireCurrentSchema(deps.db, config.databaseLabel, rules);
    return await fn(deps);
  } finally {
    await closeDb(deps.db);
  }
}
