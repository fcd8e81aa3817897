import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { statSync } from "node:fs";
import { join } from "node:path";
import { TEST_SECRET_KEY } from "../helpers/app.ts";
import { freePort } from "../helpers/binary.ts";
import { dbPath, runCli, useDataDirs } from "../helpers/cli.ts";
import { addRows, seedEveryTable } from "../helpers/every-table.ts";
import { freshPostgresDatabase, type PostgresDatabase, postgresTestUrl, pgClient } from "../helpers/postgres.ts";

const dataDir = useDataDirs();
const PASSWORD = "Nuage-Bleu-42";

const databases: PostgresDatabase[] = [];
async function emptyPostgres(): Promise<string> {
  const db = (await freshPostgresDatabase())!;
  databases.push(db);
  return db.url;
}
afterAll(async () => {
  for (const d of databases) await d.drop();
});

/** Every table of the schema (25), SQLite's search index and bookkeeping aside. */
function tableNames(file: string): string[] {
  const db = new Database(file, { readonly: true });
  const names = (db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[])
    .map((r) => r.name)
    .filter((n) => !/^(chat_search.*|sqlite_sequence|__drizzle_migrations)$/.test(n));
  db.close();
  return names;
}

/** Every row of every table, raw as SQLite stores it (milliseconds, 0/1, JSON text), in primary-key order. */
function dump(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true });
  const key = (n: string) => (db.query(`PRAGMA table_info("${n}")`).all() as { name: string; pk: number }[]).find((c) => c.pk === 1)!.name;
  const out = Object.fromEntries(tableNames(file).map((n) => [n, db.query(`SELECT * FROM "${n}" ORDER BY "${key(n)}"`).all()]));
  db.close();
  return out;
}

/**
 * A data folder whose database holds a row in every table: an account made by
 * the CLI (a real password hash), a deleted one (an id never to hand out
 * again), conversations with JSON answers, a run, billing rows.
 */
async function seededDataDir(): Promise<string> {
  const dir = await dataDir();
  const made = runCli(["users", "create", "--email", "claire@example.fr", "--first-name", "Claire", "--last-name", "Dupont", "--password", PASSWORD], dir);
  expect(made.code).toBe(0);
  seedEveryTable(dbPath(dir));
  return dir;
}

const available = postgresTestUrl() !== undefined;
/** The key the seeded council key is sealed with (every-table.ts): the copy opens it with SECRET_KEY. */
const KEYS = { SECRET_KEY: TEST_SECRET_KEY };

describe.skipIf(!available)("unisson db copy", () => {
  test("SQLite → PostgreSQL → a new SQLite file keeps every row of every table, ids, password hashes and search", async () => {
    const dir = await seededDataDir();
    // Tables of several pages (500 rows a page), keyed by an integer and by a text.
    addRows(dbPath(dir), "messages", 1234, (i) => ({ conversation_id: 2, sender: "user", content: `Question n° ${i}`, created_at: 1_790_000_000_000 }));
    addRows(dbPath(dir), "rate_limits", 1100, (i) => ({ key: `ip:test:${i}`, count: i, reset_at: 1_790_000_000_000 + i }));
    const source = dump(dbPath(dir));
    for (const [name, rows] of Object.entries(source)) expect({ name, rows: rows.length > 0 }).toEqual({ name, rows: true });
    const url = await emptyPostgres();

    const there = runCli(["db", "copy", "--to", url, "--json"], dir, KEYS);
    expect(there.stderr).toBe("");
    expect(there.code).toBe(0);
    expect(there.json().tables.length).toBe(29);

    const pg = pgClient(url);
    try {
      for (const [name, rows] of Object.entries(source)) {
        const [row] = await pg.unsafe(`SELECT count(*)::int AS n FROM "${name}"`);
        expect({ name, n: row.n }).toEqual({ name, n: rows.length });
      }
      // Values arrive as PostgreSQL types, not as SQLite's numbers and strings.
      const [ada] = await pg`SELECT is_admin, period_ends_at, pg_typeof(created_at)::text AS ts FROM users WHERE email = 'admin@example.fr'`;
      expect(ada).toEqual({ is_admin: true, period_ends_at: new Date(1_790_000_360_456), ts: "timestamp with time zone" });
      const [json] = await pg`SELECT json_typeof(result_data) AS kind FROM messages WHERE result_data IS NOT NULL`;
      expect(json.kind).toBe("object");
      const hits = await pg`SELECT id FROM messages WHERE search_vector @@ websearch_to_tsquery('french', 'cheval hiver')`;
      expect(hits.map((h: { id: number }) => h.id)).toEqual([1]);
      // An attachment's bytes arrive as bytea, byte for byte (a NUL and bytes past 0x7f included).
      const [file] = await pg`SELECT pg_typeof(data)::text AS t, encode(data, 'hex') AS hex FROM attachments WHERE id = 1`;
      expect(file).toEqual({ t: "bytea", hex: "255044462d00ff800a" });
      // The deleted account's id 2 is never handed out again: the next account is 4.
      const [next] =
        await pg`INSERT INTO users (email, password_hash, first_name, last_name, created_at, updated_at) VALUES ('neuf@example.fr', 'z', 'N', 'F', now(), now()) RETURNING id`;
      expect(next.id).toBe(4);
      await pg`DELETE FROM users WHERE id = 4`;
    } finally {
      await pg.close();
    }

    const back = join(await dataDir({ empty: true }), "retour", "unisson.db");
    const home = runCli(["db", "copy", "--to", `sqlite:${back}`], await dataDir({ empty: true }), { DATABASE_URL: url, ...KEYS });
    expect(home.stderr).toBe("");
    expect(home.code).toBe(0);
    expect(home.stdout).toContain("Copie terminée");

    expect(dump(back)).toEqual(source);
    expect(statSync(back).mode & 0o777).toBe(0o600);
    const copy = new Database(back, { readonly: true });
    const hash = (copy.query("SELECT password_hash FROM users WHERE email = 'claire@example.fr'").get() as { password_hash: string }).password_hash;
    expect(await Bun.password.verify(PASSWORD, hash)).toBe(true);
    expect(copy.query("SELECT rowid FROM chat_search WHERE chat_search MATCH 'pommes'").all()).toEqual([{ rowid: 2 }]);
    expect(copy.query("SELECT seq FROM sqlite_sequence WHERE name = 'users'").get()).toEqual({ seq: 4 });
    copy.close();
  });

  test("taken while another process writes (a running server): one consistent snapshot", async () => {
    const live = await dataDir();
    const writer = Bun.spawn([process.execPath, join(import.meta.dir, "..", "helpers", "db-writer.ts"), dbPath(live)], { stdout: "pipe", stderr: "pipe" });
    const url = await emptyPostgres();
    let r: ReturnType<typeof runCli>;
    try {
      await writer.stdout.getReader().read(); // "ready": its first commit is in
      r = runCli(["db", "copy", "--to", url], live);
    } finally {
      writer.kill();
      await writer.exited;
    }
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const pg = pgClient(url);
    const [row] =
      await pg`SELECT count(*)::int AS users, count(*) FILTER (WHERE (SELECT count(*) FROM conversations c WHERE c.user_id = u.id) <> 1)::int AS lonely FROM users u`;
    await pg.close();
    // Each of the writer's transactions (a user and their conversation) is in the copy whole or not at all.
    expect(row.users).toBeGreaterThan(0);
    expect(row.lonely).toBe(0);
  });

  test("a PostgreSQL database that already holds data is refused, in French, and left as it was", async () => {
    const url = await emptyPostgres();
    const first = runCli(["db", "copy", "--to", url], await seededDataDir(), KEYS);
    expect(first.code).toBe(0);
    const again = runCli(["db", "copy", "--to", url], await seededDataDir(), KEYS);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("La base de destination n'est pas vide");
    expect(again.stderr).toContain("users");
    const pg = pgClient(url);
    const [row] = await pg`SELECT count(*)::int AS n FROM users`;
    await pg.close();
    expect(row.n).toBe(2);
  });

  test("a SQLite file that already holds data is refused as a target", async () => {
    const url = await emptyPostgres();
    expect(runCli(["db", "copy", "--to", url], await seededDataDir(), KEYS).code).toBe(0);
    const full = await seededDataDir();
    const r = runCli(["db", "copy", "--to", `sqlite:${dbPath(full)}`], await dataDir({ empty: true }), { DATABASE_URL: url, ...KEYS });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("La base de destination n'est pas vide");
  });

  test("an unreachable PostgreSQL is refused in French without echoing its password", async () => {
    const r = runCli(["db", "copy", "--to", `postgres://unisson:mot-secret@127.0.0.1:${freePort()}/unisson`], await seededDataDir());
    expect(r.code).toBe(1);
    expect(r.stderr).toStartWith("Connexion à PostgreSQL impossible : connexion refusée");
    expect(r.stderr).toContain("postgres://unisson:***@127.0.0.1");
    expect(r.stderr).not.toContain("mot-secret");
  });

  test("a PostgreSQL database that does not exist is refused in French: the copy creates no database", async () => {
    const url = new URL(postgresTestUrl()!);
    url.pathname = "/pas_de_base_ici";
    const r = runCli(["db", "copy", "--to", url.toString()], await seededDataDir());
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(`Connexion à PostgreSQL impossible : cette base n'existe pas (créez-la d'abord, vide) (${url}).`);
  });
});

describe("unisson db copy: refusals that need no PostgreSQL", () => {
  test("a destination that is neither postgres:// nor sqlite: is refused in French", async () => {
    const r = runCli(["db", "copy", "--to", "mysql://root@127.0.0.1/unisson"], await dataDir());
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe("Destination non reconnue : --to attend postgres://utilisateur:motdepasse@hôte:port/base ou sqlite:/chemin/fichier.db.");
  });

  test("copying to SQLite without DATABASE_URL is refused: the database already is SQLite", async () => {
    const r = runCli(["db", "copy", "--to", "sqlite:/tmp/ailleurs.db"], await dataDir());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("DATABASE_URL doit désigner la base PostgreSQL à copier");
  });

  test("a DATABASE_URL that is not postgres:// is refused in French by every command", async () => {
    const r = runCli(["users", "list"], await dataDir(), { DATABASE_URL: "mysql://u:p@127.0.0.1:3306/unisson" });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("DATABASE_URL");
    expect(r.stderr).toContain("doit être une URL postgres://");
  });
});
