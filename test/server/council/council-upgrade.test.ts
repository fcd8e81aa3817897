import { expect, test } from "bun:test";
import { getSettings, listMembers } from "../../../src/council/council.store.ts";
import { openDb } from "../../../src/db/client.ts";
import { runMigrations } from "../../../src/db/migrate.ts";
import { migrations } from "../../../src/db/migrations/index.ts";
import { makeUser } from "../../helpers/fixtures.ts";

test("a database made before the council keeps its data and gets exactly the six members and today's settings", async () => {
  const db = openDb(":memory:");
  await runMigrations(
    db,
    migrations.slice(
      0,
      migrations.findIndex((m) => m.tag.endsWith("_council")),
    ),
  );
  const { user } = await makeUser(db, new Date());
  await runMigrations(db);
  const members = await listMembers(db);
  expect(members.map((m) => m.name)).toEqual(["GPT-4", "Claude 3 Haiku", "Claude Opus 4.1", "Gemini Pro", "Mistral Large", "Sonar Pro"]);
  expect(members.every((m) => m.enabled && m.model === null && m.priceInEur === null)).toBe(true);
  const settings = await getSettings(db);
  expect(members.find((m) => m.id === settings.clarifierMemberId)?.builtinKey).toBe("claudeHaiku");
  expect(settings.peerReview).toBe(false);
  expect(db.$client.query("SELECT email FROM users WHERE id = ?").get(user.id)).toEqual({ email: user.email });
});
