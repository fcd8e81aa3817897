import { getTableColumns, getTableName, is, Table } from "drizzle-orm";
import * as schema from "../../../src/db/schema/index.ts";
import { onPostgres } from "../../helpers/test-database.ts";
import { aiCalls, checkoutSessions, pendingPlanChanges, purchases, referrals } from "../../../src/db/schema/index.ts";
import { createTestApp, type TestEnv } from "../../helpers/app.ts";
import { makeUser, TEST_PASSWORD } from "../../helpers/fixtures.ts";
import { seedConversation } from "../history/history.helpers.ts";

export const MARK = {
  email: "zoe.quintal@example.fr",
  firstName: "Zoé",
  lastName: "Quintaloup",
  question: "Comment soigner mes hortensias bleus ?",
  answer: "Arrosez-les d'eau de pluie, dit Quintaloup.",
};

/**
 * A user who has left a trace in every table that can name them: conversations,
 * a payment, a plan change, a checkout, a referral (both ways), sessions, a
 * remembered device, a contact message, mails, AI-call counts, a reset link.
 */
export async function richUser(env: TestEnv = {}) {
  const t = await createTestApp({ env });
  const now = t.clock.now();
  const referrer = await makeUser(t.db, now, { subscriptionType: "pro", referralCode: "PARRAIN1" });
  const { user, token } = await makeUser(t.db, now, { email: MARK.email, firstName: MARK.firstName, lastName: MARK.lastName, subscriptionType: "basic" });
  const h = { ...t, user, token };
  const conversationId = await seedConversation(h, MARK.question, MARK.answer);
  await seedConversation(h, "Une deuxième question sur les rosiers");
  await t.db
    .insert(purchases)
    .values({ userId: user.id, productType: "subscription_basic", checkoutSessionId: "cs_test_zoe", amountCents: 1199, createdAt: now });
  await t.db
    .insert(checkoutSessions)
    .values({ id: "cs_test_zoe", userId: user.id, productType: "subscription_basic", referrerId: referrer.user.id, createdAt: now });
  await t.db.insert(referrals).values({ referrerId: referrer.user.id, refereeId: user.id, checkoutSessionId: "cs_test_zoe", bonus: 10, createdAt: now });
  await t.db
    .insert(pendingPlanChanges)
    .values({ userId: user.id, targetPlan: "pro", targetCycle: "monthly", reason: "Plus de requêtes", scheduledAt: now, createdAt: now });
  await t.db
    .insert(aiCalls)
    .values({ userId: user.id, conversationId, model: "GPT-4", provider: "openai", purpose: "answer", outcome: "ok", latencyMs: 120, createdAt: now });
  await t.call("POST", "/api/contact", {
    json: { name: `${MARK.firstName} ${MARK.lastName}`, email: MARK.email, subject: "Hortensias", message: "Une question pour le support" },
  });
  await t.call("POST", "/api/auth/forgot-password", { json: { email: MARK.email } });
  const login = await t.call("POST", "/api/auth/login", {
    json: { email: MARK.email, password: TEST_PASSWORD },
    headers: { "user-agent": "Navigateur de Zoé" },
  });
  return { ...h, referrer, conversationId, loginToken: login.body?.token as string | undefined };
}

/** Every row of every ordinary table, as text: what a leak would be found in. */
export async function everyRow(t: { db: Awaited<ReturnType<typeof createTestApp>>["db"] }): Promise<Array<{ table: string; row: Record<string, unknown> }>> {
  if (onPostgres) return await everyRowThroughSchema(t.db);
  const tables = t.db.$client
    .query(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'chat_search%' AND name <> '__drizzle_migrations'",
    )
    .all() as Array<{ name: string }>;
  return tables.flatMap(({ name }) =>
    (t.db.$client.query(`SELECT * FROM "${name}"`).all() as Array<Record<string, unknown>>).map((row) => ({ table: name, row })),
  );
}

/** The same on PostgreSQL: every table of the schema through the data layer, each row keyed by its column names as on SQLite. */
async function everyRowThroughSchema(db: Awaited<ReturnType<typeof createTestApp>>["db"]): Promise<Array<{ table: string; row: Record<string, unknown> }>> {
  const out: Array<{ table: string; row: Record<string, unknown> }> = [];
  for (const table of Object.values(schema).filter((v): v is typeof schema.users => is(v, Table))) {
    const columns = Object.entries(getTableColumns(table));
    for (const r of (await db.select().from(table)) as Array<Record<string, unknown>>) {
      out.push({ table: getTableName(table), row: Object.fromEntries(columns.map(([key, col]) => [col.name, r[key]])) });
    }
  }
  return out;
}
