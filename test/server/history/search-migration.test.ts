import { expect, test } from "bun:test";
import { openDb } from "../../../src/db/client.ts";
import { runMigrations } from "../../../src/db/migrate.ts";
import { migrations } from "../../../src/db/migrations/index.ts";
import { searchConversations } from "../../../src/chat/history.queries.ts";
import { makeUser } from "../../helpers/fixtures.ts";

test("the search migration indexes the messages written before it", async () => {
  const db = openDb(":memory:");
  const index = migrations.findIndex((m) => m.tag.endsWith("_history_search"));
  await runMigrations(db, migrations.slice(0, index));
  const { user } = await makeUser(db, new Date());
  db.$client.run("INSERT INTO conversations (user_id, title, message_count, created_at, updated_at) VALUES (?, 'Vieille', 2, 1, 1)", [user.id]);
  db.$client.run(
    "INSERT INTO messages (conversation_id, sender, message_type, content, created_at) VALUES (1, 'user', NULL, 'Une vieille question sur les châteaux', 1), (1, 'assistant', 'final_response', 'Une réponse sur Chambord', 1)",
  );
  await runMigrations(db);
  expect((await searchConversations(db, user.id, ["chateaux"], 10)).map((c) => c.id)).toEqual([1]);
  expect((await searchConversations(db, user.id, ["chambord"], 10)).map((c) => c.id)).toEqual([1]);
});
