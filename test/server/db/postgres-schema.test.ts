import { afterAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { getTableConfig } from "drizzle-orm/sqlite-core";
import { sqliteTables } from "../../../src/db/schema/sqlite.ts";
import { openDb } from "../../../src/db/client.ts";
import { runMigrations } from "../../../src/db/migrate.ts";
import { pgMigrations } from "../../../src/db/migrations/index.ts";
import { appliedPgCount, runPgMigrations } from "../../../src/db/pg/migrate.ts";
import { freshPostgresDatabase, type PostgresDatabase, postgresTestUrl } from "../../helpers/postgres.ts";

const databases: PostgresDatabase[] = [];
const clients: SQL[] = [];
/** A new empty PostgreSQL database and a client on it, both gone after the file. */
async function emptyDatabase(): Promise<SQL> {
  return client((await freshPostgresDatabase())!);
}
function client(db: PostgresDatabase): SQL {
  if (!databases.includes(db)) databases.push(db);
  const c = new SQL({ url: db.url, max: 2 });
  clients.push(c);
  return c;
}
afterAll(async () => {
  for (const c of clients) await c.close();
  for (const d of databases) await d.drop();
});

const available = postgresTestUrl() !== undefined;

/** What exists only on one side, on purpose: each dialect's own search index (docs/SCALING.md, "Search") and bookkeeping. */
const SQLITE_ONLY_TABLE = /^(chat_search.*|sqlite_sequence|__drizzle_migrations)$/;
const PG_ONLY_COLUMN = "messages.search_vector";
const PG_ONLY_INDEX = "messages_search_idx";

describe("the one table description", () => {
  test("lists the tables in foreign-key order (each after the tables it references), the order `db copy` fills them in", () => {
    const seen = new Set<string>();
    const late: string[] = [];
    for (const table of Object.values(sqliteTables)) {
      const config = getTableConfig(table);
      for (const fk of config.foreignKeys) {
        const target = getTableConfig(fk.reference().foreignTable).name;
        if (target !== config.name && !seen.has(target)) late.push(`${config.name} -> ${target}`);
      }
      seen.add(config.name);
    }
    expect(seen.size).toBe(27);
    expect(late).toEqual([]);
  });
});

describe.skipIf(!available)("PostgreSQL: migrations and the schema shared with SQLite", () => {
  test("the migrations apply on an empty database, and a second run applies nothing", async () => {
    const sql = await emptyDatabase();
    expect(await runPgMigrations(sql)).toBe(pgMigrations.length);
    expect(await runPgMigrations(sql)).toBe(0);
    const [row] = await sql`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'`;
    expect(row.n).toBe(27);
  });

  test("three servers migrating an empty database at the same moment all come up, and the migrations apply once", async () => {
    const db = (await freshPostgresDatabase())!;
    // Three separate pools, as three servers would have.
    const servers = [client(db), client(db), client(db)];
    const sql = servers[0]!;
    const applied = await Promise.all(servers.map((s) => runPgMigrations(s)));
    expect(applied.reduce((a, b) => a + b, 0)).toBe(pgMigrations.length);
    expect(await appliedPgCount(sql)).toBe(pgMigrations.length);
  });

  test("the tables built from the one description have the same tables, columns, nullability and indexes on SQLite and PostgreSQL", async () => {
    const sql = await emptyDatabase();
    await runPgMigrations(sql);
    const lite = openDb(":memory:");
    await runMigrations(lite);

    const liteTables = (lite.$client.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[])
      .map((r) => r.name)
      .filter((n) => !SQLITE_ONLY_TABLE.test(n));
    const liteColumns = liteTables.flatMap((t) =>
      (lite.$client.query(`PRAGMA table_info(${t})`).all() as { name: string; notnull: number; pk: number }[]).map(
        (c) => `${t}.${c.name} ${c.notnull || c.pk ? "not null" : "null"}`,
      ),
    );
    const liteIndexes = (
      lite.$client.query("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex%'").all() as { name: string }[]
    ).map((r) => r.name);

    const pgColumns = (
      (await sql`SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public'`) as {
        table_name: string;
        column_name: string;
        is_nullable: string;
      }[]
    )
      .filter((c) => `${c.table_name}.${c.column_name}` !== PG_ONLY_COLUMN)
      .map((c) => `${c.table_name}.${c.column_name} ${c.is_nullable === "NO" ? "not null" : "null"}`);
    const pgTables = [...new Set(pgColumns.map((c) => c.split(".")[0]!))];
    const pgIndexes = ((await sql`SELECT indexname FROM pg_indexes WHERE schemaname = 'public'`) as { indexname: string }[])
      .map((r) => r.indexname)
      .filter((n) => !n.endsWith("_pkey") && n !== PG_ONLY_INDEX);
    lite.$client.close();

    expect(liteTables.length).toBe(27);
    expect(pgTables.sort()).toEqual(liteTables.sort());
    expect(pgColumns.sort()).toEqual(liteColumns.sort());
    expect(pgIndexes.sort()).toEqual(liteIndexes.sort());
  });

  test("a message is indexed for search in French by the generated column, with no trigger to keep", async () => {
    const sql = await emptyDatabase();
    await runPgMigrations(sql);
    const now = new Date();
    await sql`INSERT INTO users (email, password_hash, first_name, last_name, created_at, updated_at) VALUES ('a@example.com', 'x', 'A', 'B', ${now}, ${now})`;
    await sql`INSERT INTO conversations (user_id, title, created_at, updated_at) VALUES (1, 't', ${now}, ${now})`;
    await sql`INSERT INTO messages (conversation_id, sender, content, created_at) VALUES (1, 'user', 'Les chevaux mangeaient des pommes', ${now})`;
    const hits = await sql`SELECT id FROM messages WHERE search_vector @@ websearch_to_tsquery('french', 'cheval pomme')`;
    expect(hits.length).toBe(1);
  });
});
