import { pgClient } from "../../helpers/postgres.ts";
import { sql } from "drizzle-orm";
import type { Db } from "../../../src/db/client.ts";

/**
 * A database that refuses to end runs, on SQLite and PostgreSQL: a trigger
 * refuses any update that sets a run's status to anything but "running"
 * while a row sits in `block_run_endings`, standing in for a failing disk or
 * a lost connection at the moment of the run's final write.
 */
type Target = { db: Db; config: { databaseUrl?: string } };

async function exec(t: Target, statements: string[]) {
  if (t.config.databaseUrl) {
    const client = pgClient(t.config.databaseUrl);
    try {
      for (const s of statements) await client.unsafe(s);
    } finally {
      await client.close();
    }
  } else for (const s of statements) await t.db.run(sql.raw(s));
}

/** Installs the trigger (once per database) and starts refusing. */
export async function refuseRunEndings(t: Target, install = true) {
  const setup = t.config.databaseUrl
    ? [
        "CREATE TABLE block_run_endings (x integer)",
        "CREATE FUNCTION refuse_run_ending() RETURNS trigger AS $$ BEGIN IF EXISTS (SELECT 1 FROM block_run_endings) THEN RAISE EXCEPTION 'écriture refusée'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql",
        "CREATE TRIGGER refuse_run_ending BEFORE UPDATE ON processing_runs FOR EACH ROW WHEN (NEW.status <> 'running') EXECUTE FUNCTION refuse_run_ending()",
      ]
    : [
        "CREATE TABLE block_run_endings (x integer)",
        "CREATE TRIGGER refuse_run_ending BEFORE UPDATE ON processing_runs WHEN NEW.status <> 'running' AND EXISTS (SELECT 1 FROM block_run_endings) BEGIN SELECT RAISE(ABORT, 'écriture refusée'); END",
      ];
  await exec(t, [...(install ? setup : []), "INSERT INTO block_run_endings VALUES (1)"]);
}

export const acceptRunEndings = (t: Target) => exec(t, ["DELETE FROM block_run_endings"]);
