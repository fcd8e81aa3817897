import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { pgMigrations } from "../../src/db/migrations/index.ts";
import { runPgMigrations } from "../../src/db/pg/migrate.ts";
import { TEST_SECRET_KEY } from "../helpers/app.ts";
import { runCli, useDataDirs } from "../helpers/cli.ts";
import { startSourceServer } from "../helpers/source-server.ts";
import { freshPostgresDatabase, type PostgresDatabase, pgClient, postgresTestUrl } from "../helpers/postgres.ts";

/**
 * Upgrading on PostgreSQL (issue 46): `migrate` takes a pg_dump backup as it
 * takes a file copy on SQLite, says exactly how to take one without pg_dump,
 * and the older executable's refusal names pg_restore.
 */
const dataDir = useDataDirs();
const databases: PostgresDatabase[] = [];
afterAll(async () => {
  for (const d of databases) await d.drop();
});

async function database(): Promise<PostgresDatabase> {
  const pg = (await freshPostgresDatabase())!;
  databases.push(pg);
  return pg;
}

/** A database an older executable left: its first migration only, and one account. */
async function olderDatabase(): Promise<PostgresDatabase> {
  const pg = await database();
  const client = pgClient(pg.url);
  await runPgMigrations(client, pgMigrations.slice(0, 1));
  await client`INSERT INTO users (email, password_hash, first_name, last_name, created_at, updated_at) VALUES ('ancien@example.fr', 'x', 'A', 'B', now(), now())`;
  await client.close();
  return pg;
}

const hasPgDump = Bun.which("pg_dump") !== null && Bun.which("pg_restore") !== null;

describe.skipIf(postgresTestUrl() === undefined || !hasPgDump)("unisson migrate on PostgreSQL", () => {
  test("takes a pg_dump backup (0600) before migrating, which pg_restore brings back with the old data", async () => {
    const pg = await olderDatabase();
    const dir = await dataDir({ empty: true });
    const r = runCli(["migrate", "--json"], dir, { DATABASE_URL: pg.url });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const backup = join(dir, "backups", "pre-migrate-1.dump");
    expect(r.json()).toMatchObject({ applied: pgMigrations.length - 1, backup });
    expect(statSync(backup).mode & 0o777).toBe(0o600);

    const restored = await database();
    const restore = Bun.spawnSync(["pg_restore", "--no-owner", `--dbname=${restored.url}`, backup], { stderr: "pipe" });
    expect(restore.stderr.toString()).toBe("");
    const client = pgClient(restored.url);
    const [row] = await client`SELECT email FROM users`;
    const [count] = await client`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`;
    await client.close();
    expect(row.email).toBe("ancien@example.fr");
    expect(count.n).toBe(1);
  });

  test("without pg_dump on the PATH, refuses with the exact command to run, and migrates nothing", async () => {
    const pg = await olderDatabase();
    const dir = await dataDir({ empty: true });
    const r = runCli(["migrate"], dir, { DATABASE_URL: pg.url, PATH: "/nulle-part" });
    const url = new URL(pg.url);
    expect(r.stderr.trim()).toBe(
      `pg_dump est introuvable sur le PATH : aucune sauvegarde de la base PostgreSQL n'a été prise avant la migration. Prenez-en une vous-même (pg_dump --format=custom --file=${join(dir, "backups", "pre-migrate-1.dump")} 'postgres://${url.username}@${url.hostname}:${url.port}${url.pathname}'), puis lancez \`unisson migrate --no-backup\` ; ou installez pg_dump (paquet postgresql-client, de la version du serveur ou plus récent).`,
    );
    expect(r.code).toBe(1);
    expect(existsSync(join(dir, "backups"))).toBe(false);
    const client = pgClient(pg.url);
    const [count] = await client`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`;
    await client.close();
    expect(count.n).toBe(1);
  });

  test("--no-backup migrates without pg_dump (the operator took the backup)", async () => {
    const pg = await olderDatabase();
    const r = runCli(["migrate", "--no-backup", "--json"], await dataDir({ empty: true }), { DATABASE_URL: pg.url, PATH: "/nulle-part" });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ applied: pgMigrations.length - 1, backup: null });
  });

  test("a server starting without pg_dump says how to take the backup, and migrates (the Docker image has no pg_dump)", async () => {
    const pg = await olderDatabase();
    const dir = await dataDir({ empty: true });
    const server = await startSourceServer({ DATA_DIR: dir, DATABASE_URL: pg.url, SECRET_KEY: TEST_SECRET_KEY, PATH: "/nulle-part" });
    try {
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    } finally {
      await server.stop();
    }
    // Warnings go to stderr, read once the server has exited.
    expect(await new Response(server.proc.stderr).text()).toContain(
      "pg_dump est introuvable sur le PATH : aucune sauvegarde de la base PostgreSQL n'a été prise avant la migration.",
    );
    const client = pgClient(pg.url);
    const [count] = await client`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`;
    await client.close();
    expect(count.n).toBe(pgMigrations.length);
  });

  test("an older executable's refusal of a newer database gives pg_restore's step", async () => {
    const pg = await database();
    const client = pgClient(pg.url);
    await runPgMigrations(client);
    await client`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('futur', ${pgMigrations.at(-1)!.when + 1000})`;
    await client.close();
    const r = runCli(["users", "list"], await dataDir({ empty: true }), { DATABASE_URL: pg.url });
    const n = pgMigrations.length;
    expect(r.stderr.trim()).toBe(
      `La base ${pg.url} vient d'une version plus récente d'Unisson (schéma ${n + 1}, cet exécutable connaît le schéma ${n}) : utilisez l'exécutable de cette version, ou restaurez la sauvegarde pre-migrate : serveurs arrêtés, \`pg_restore --clean --if-exists --no-owner --dbname='${pg.url}' backups/pre-migrate-${n}.dump\` (dossier de données du \`unisson migrate\` qui l'a prise ; mot de passe par PGPASSWORD).`,
    );
    expect(r.code).toBe(1);
  });
});
