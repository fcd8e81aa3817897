import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { openDb } from "../../src/db/client.ts";
import { runMigrations } from "../../src/db/migrate.ts";
import { migrations, pgMigrations } from "../../src/db/migrations/index.ts";
import { dbPath, runCli, useDataDirs } from "../helpers/cli.ts";
import { freshPostgresDatabase, type PostgresDatabase, postgresTestUrl, pgClient } from "../helpers/postgres.ts";

const dataDir = useDataDirs();

/** A data folder whose database stopped at the first migration, with one user: what an older executable left. */
async function olderDatabase(): Promise<string> {
  const dir = await dataDir({ empty: true });
  const db = openDb(dbPath(dir));
  await runMigrations(db, migrations.slice(0, 1));
  db.$client.run("INSERT INTO users (email, password_hash, first_name, last_name, created_at, updated_at) VALUES ('ancien@example.fr', 'x', 'A', 'B', 0, 0)");
  db.$client.close();
  return dir;
}

/** A database a newer executable migrated: one more migration than this one knows. */
async function newerDatabase(): Promise<string> {
  const dir = await dataDir();
  const db = openDb(dbPath(dir));
  db.$client.run("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('futur', ?)", [migrations.at(-1)!.when + 1000]);
  db.$client.close();
  return dir;
}

describe("CLI database opening rules", () => {
  test("a command on a missing database is refused, names the path, and creates nothing", async () => {
    const dir = await dataDir({ empty: true });
    const r = runCli(["users", "list"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`Base de données introuvable : ${dbPath(dir)} (vérifiez DATA_DIR ou --data-dir ; elle n'est pas créée ici).`);
    expect(existsSync(dbPath(dir))).toBe(false);
  });

  test("users create may create the database", async () => {
    const dir = await dataDir({ empty: true });
    const r = runCli(["users", "create", "--email", "premier@example.fr", "--first-name", "P", "--last-name", "R", "--password", "Secret123"], dir);
    expect(r.code).toBe(0);
    expect(runCli(["users", "list", "--json"], dir).json().total).toBe(1);
  });

  test("a command on an out-of-date database is refused with `unisson migrate`, and nothing is migrated", async () => {
    const dir = await olderDatabase();
    const r = runCli(["users", "list"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `La base ${dbPath(dir)} n'est pas à jour (schéma 1, attendu ${migrations.length}) : lancez \`unisson migrate\` (le serveur le fait aussi à son démarrage).`,
    );
    const db = openDb(dbPath(dir));
    expect((db.$client.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number }).n).toBe(1);
    db.$client.close();
  });

  test("a command on a newer database is refused and never reads it", async () => {
    const dir = await newerDatabase();
    for (const args of [
      ["users", "list"],
      ["migrate"],
      ["users", "create", "--email", "x@example.fr", "--first-name", "X", "--last-name", "Y", "--password", "Secret123"],
    ]) {
      const r = runCli(args, dir);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(
        `La base ${dbPath(dir)} vient d'une version plus récente d'Unisson (schéma ${migrations.length + 1}, cet exécutable connaît le schéma ${migrations.length}) : utilisez l'exécutable de cette version, ou restaurez la sauvegarde pre-migrate : serveur arrêté, copiez backups/pre-migrate-${migrations.length}.db (dans le dossier de données) à la place de ${dbPath(dir)}, sans ses fichiers -wal et -shm.`,
      );
    }
  });

  test("migrate takes a pre-migration backup (0600) that still holds the old data, then the CLI works", async () => {
    const dir = await olderDatabase();
    const r = runCli(["migrate", "--json"], dir);
    expect(r.code).toBe(0);
    const backup = join(dir, "backups", "pre-migrate-1.db");
    expect(r.json()).toEqual({ applied: migrations.length - 1, database: dbPath(dir), backup });
    expect(readdirSync(join(dir, "backups"))).toEqual(["pre-migrate-1.db"]);
    expect(statSync(backup).mode & 0o777).toBe(0o600);
    const copy = openDb(backup);
    expect((copy.$client.query("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number }).n).toBe(1);
    expect((copy.$client.query("SELECT email FROM users").get() as { email: string }).email).toBe("ancien@example.fr");
    copy.$client.close();
    expect(runCli(["users", "list", "--json"], dir).json().total).toBe(1);
  });

  test("migrate refuses while a live server holds the database", async () => {
    const dir = await dataDir();
    const db = openDb(dbPath(dir));
    // One migration short of this executable, and a lease held by a live process (this test's).
    db.$client.run("DELETE FROM __drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM __drizzle_migrations)");
    db.$client.run("INSERT INTO server_lease (id, holder, hostname, pid, url, acquired_at, heartbeat_at, expires_at) VALUES (1, 'h', ?, ?, NULL, ?, ?, ?)", [
      hostname(),
      process.pid,
      Date.now(),
      Date.now(),
      Date.now() + 60_000,
    ]);
    db.$client.close();
    const r = runCli(["migrate"], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`Un serveur Unisson utilise cette base (pid ${process.pid} sur ${hostname()}) : arrêtez-le avant de migrer.`);
    expect(existsSync(join(dir, "backups"))).toBe(false);
  });

  test("migrate on an up-to-date database takes no backup", async () => {
    const dir = await dataDir();
    expect(runCli(["migrate"], dir).code).toBe(0);
    expect(existsSync(join(dir, "backups"))).toBe(false);
  });
});

const pgDatabases: PostgresDatabase[] = [];
afterAll(async () => {
  for (const d of pgDatabases) await d.drop();
});

describe.skipIf(postgresTestUrl() === undefined)("CLI database opening rules on PostgreSQL", () => {
  test("a database one migration behind is refused, counting PostgreSQL's migrations (not SQLite's)", async () => {
    const pg = (await freshPostgresDatabase())!;
    pgDatabases.push(pg);
    const dir = await dataDir({ empty: true });
    expect(runCli(["migrate"], dir, { DATABASE_URL: pg.url }).code).toBe(0);
    const client = pgClient(pg.url);
    await client`DELETE FROM drizzle.__drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM drizzle.__drizzle_migrations)`;
    await client.close();
    const r = runCli(["users", "list"], dir, { DATABASE_URL: pg.url });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toContain(`(schéma ${pgMigrations.length - 1}, attendu ${pgMigrations.length})`);
  });
});
