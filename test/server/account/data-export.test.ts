import { describe, expect, test } from "bun:test";
import { TEST_PASSWORD } from "../../helpers/fixtures.ts";
import { seedConversation } from "../history/history.helpers.ts";
import { MARK, richUser } from "./account.helpers.ts";

describe("GET /api/auth/export", () => {
  test("holds the account, every conversation with every message, payments, plan changes and referrals", async () => {
    const t = await richUser();
    const res = await t.call("GET", "/api/auth/export", { token: t.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="unisson-mes-donnees-\d{4}-\d{2}-\d{2}\.json"$/);
    const d = res.body;
    expect(d.account).toMatchObject({ id: t.user.id, email: MARK.email, firstName: MARK.firstName, lastName: MARK.lastName, subscriptionType: "basic" });
    expect(d.conversations).toHaveLength(2);
    const first = d.conversations.find((c: { id: number }) => c.id === t.conversationId);
    expect(first.messages.map((m: { content: string }) => m.content)).toEqual([MARK.question, MARK.answer]);
    expect(d.payments).toEqual([expect.objectContaining({ amountCents: 1199, productType: "subscription_basic" })]);
    expect(d.plan_changes).toEqual([expect.objectContaining({ targetPlan: "pro", reason: "Plus de requêtes" })]);
    expect(d.referrals).toEqual([expect.objectContaining({ role: "filleul", bonus: 10 })]);
    expect(d.contact_messages).toEqual([expect.objectContaining({ subject: "Hortensias" })]);
    expect(d.sessions.some((s: { userAgent: string | null }) => s.userAgent === "Navigateur de Zoé")).toBe(true);
    expect(d.ai_calls).toEqual([expect.objectContaining({ model: "GPT-4", purpose: "answer" })]);
  });

  test("lists the personal API keys by name and prefix, never the key or its hash", async () => {
    const t = await richUser();
    const created = await t.call("POST", "/api/auth/api-keys", { token: t.token, json: { name: "Mon script" } });
    expect(created.status).toBe(201);
    const res = await t.call("GET", "/api/auth/export", { token: t.token });
    expect(res.body.api_keys).toEqual([expect.objectContaining({ name: "Mon script", prefix: created.body.prefix, revokedAt: null })]);
    expect(JSON.stringify(res.body)).not.toContain(created.body.secret);
  });

  test("every conversation, however many", async () => {
    const t = await richUser();
    for (let i = 0; i < 300; i++) await seedConversation(t, `Question ${i}`, `Réponse ${i}`);
    const res = await t.call("GET", "/api/auth/export", { token: t.token });
    expect(res.body.conversations).toHaveLength(302);
    expect(res.body.conversations.every((c: { messages: unknown[] }) => c.messages.length >= 1)).toBe(true);
  });

  test("no secret: no password hash, no token hash", async () => {
    const t = await richUser();
    const text = JSON.stringify((await t.call("GET", "/api/auth/export", { token: t.token })).body);
    expect(text).not.toContain("passwordHash");
    expect(text).not.toContain("argon2");
    expect(text).not.toMatch(/token_?hash/i);
    expect(text).not.toContain(TEST_PASSWORD);
  });

  test("only the caller's data", async () => {
    const t = await richUser();
    const text = JSON.stringify((await t.call("GET", "/api/auth/export", { token: t.referrer.token })).body);
    expect(text).not.toContain(MARK.question);
    expect(text).not.toContain(MARK.email);
  });

  test("requires a session", async () => {
    const t = await richUser();
    expect((await t.call("GET", "/api/auth/export")).status).toBe(401);
  });
});
