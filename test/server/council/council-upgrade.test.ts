import { describe, expect, test } from "bun:test";
import { getSettings, listMembers } from "../../../src/council/council.store.ts";
import { openDb } from "../../../src/db/client.ts";
import { runMigrations } from "../../../src/db/migrate.ts";
import { migrations, pgMigrations } from "../../../src/db/migrations/index.ts";
import { runPgMigrations } from "../../../src/db/pg/migrate.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { freshPostgresDatabase, postgresTestUrl, pgClient } from "../../helpers/postgres.ts";

const SIX = ["GPT-4", "Claude 3 Haiku", "Claude Opus 4.1", "Gemini Pro", "Mistral Large", "Sonar Pro"];
const beforeCouncil = <T extends { tag: string }>(list: T[]) =>
  list.slice(
    0,
    list.findIndex((m) => m.tag.endsWith("_council")),
  );

test("a SQLite database made before the council keeps its data and gets exactly the six members and today's settings", async () => {
  const db = openDb(":memory:");
  await runMigrations(db, beforeCouncil(migrations));
  const { user } = await makeUser(db, new Date());
  await runMigrations(db);
  const members = await listMembers(db);
  expect(members.map((m) => m.name)).toEqual(SIX);
  // Model, key, base URL and prices left to MODEL_*, *_API_KEY, *_BASE_URL and AI_PRICE_*: what the installation had.
  expect(members.every((m) => m.enabled && m.model === null && m.baseUrl === null && m.apiKeyEnc === null && m.priceInEur === null)).toBe(true);
  const settings = await getSettings(db);
  expect(members.find((m) => m.id === settings.clarifierMemberId)?.builtinKey).toBe("claudeHaiku");
  expect(settings.peerReview).toBe(false);
  expect(db.$client.query("SELECT email FROM users WHERE id = ?").get(user.id)).toEqual({ email: user.email });
});

describe.skipIf(postgresTestUrl() === undefined)("PostgreSQL", () => {
  test("a database made before the council gets exactly the six members, in today's synthesis order", async () => {
    const target = (await freshPostgresDatabase())!;
    const sql = pgClient(target.url);
    try {
      await runPgMigrations(sql, beforeCouncil(pgMigrations));
      await sql`INSERT INTO users (email, password_hash, first_name, last_name, created_at, updated_at) VALUES ('ancien@example.fr', 'x', 'A', 'B', now(), now())`;
      await runPgMigrations(sql);
      const rows = await sql`SELECT name, builtin_key, synthesis_rank, enabled, model FROM council_members ORDER BY position`;
      expect(rows.map((r: { name: string }) => r.name)).toEqual(SIX);
      expect(rows.map((r: { synthesis_rank: number }) => r.synthesis_rank)).toEqual([2, 6, 1, 3, 4, 5]);
      expect(rows.every((r: { enabled: boolean; model: string | null }) => r.enabled && r.model === null)).toBe(true);
      const [settings] =
        await sql`SELECT s.peer_review, s.version, m.builtin_key FROM council_settings s JOIN council_members m ON m.id = s.clarifier_member_id`;
      expect(settings).toEqual({ peer_review: false, version: 1, builtin_key: "claudeHaiku" });
      expect((await sql`SELECT count(*)::int AS n FROM users`)[0].n).toBe(1);
    } finally {
      await sql.close();
      await target.drop();
    }
  });
});
