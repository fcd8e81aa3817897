import { describe, expect, test } from "bun:test";
import { makeUser, TEST_PASSWORD } from "../../helpers/fixtures.ts";
import { onPostgres } from "../../helpers/test-database.ts";
import { lastCode } from "../auth/auth.helpers.ts";
import { everyRow, MARK, richUser } from "./account.helpers.ts";

const del = (t: { call: Awaited<ReturnType<typeof richUser>>["call"] }, token: string, json: unknown) => t.call("DELETE", "/api/auth/account", { token, json });

/** What names the user: ids in a user column, or their e-mail, name or words anywhere. */
async function traces(t: Awaited<ReturnType<typeof richUser>>) {
  const words = [MARK.email, MARK.lastName, "hortensias", "Quintaloup", "Navigateur de Zoé"];
  return (await everyRow(t)).filter(({ row }) => {
    const text = JSON.stringify(row).toLowerCase();
    if (words.some((w) => text.includes(w.toLowerCase()))) return true;
    return Object.entries(row).some(([k, v]) => /(^|_)(user|referee)_id$/.test(k) && v === t.user.id);
  });
}

describe("DELETE /api/auth/account", () => {
  test("a wrong password is refused (403, French) and nothing is deleted", async () => {
    const t = await richUser();
    const before = (await traces(t)).length;
    const res = await del(t, t.token, { password: "PasLeBonMotdepasse1" });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe("Mot de passe incorrect.");
    expect((await traces(t)).length).toBe(before);
    expect((await t.call("GET", "/api/auth/me", { token: t.token })).status).toBe(200);
  });

  test("a missing password: 400 in French", async () => {
    const t = await richUser();
    const res = await del(t, t.token, {});
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Veuillez saisir votre mot de passe pour confirmer.");
  });

  test("the right password deletes everything but the anonymised payment records", async () => {
    const t = await richUser();
    const res = await del(t, t.token, { password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: "Votre compte a été supprimé." });
    expect(await traces(t)).toEqual([]);
    const kept = (await everyRow(t)).filter(({ table }) => table === "purchases");
    expect(kept.map(({ row }) => ({ user_id: row.user_id, amount_cents: row.amount_cents }))).toEqual([{ user_id: null, amount_cents: 1199 }]);
    // SQLite's search index (an FTS5 table, outside everyRow) holds nothing of theirs either; PostgreSQL searches the rows themselves.
    if (!onPostgres) expect(t.db.$client.query("SELECT count(*) AS n FROM chat_search WHERE chat_search MATCH ?").get(`owner:u${t.user.id}`)).toEqual({ n: 0 });
    // The referrer keeps their account; the referral row went with the referee.
    expect((await t.call("GET", "/api/auth/me", { token: t.referrer.token })).status).toBe(200);
  });

  test("logs the user out: every session of theirs stops working", async () => {
    const t = await richUser();
    await del(t, t.token, { password: TEST_PASSWORD });
    expect((await t.call("GET", "/api/auth/me", { token: t.token })).status).toBe(401);
    expect((await t.call("GET", "/api/auth/me", { token: t.loginToken })).status).toBe(401);
    const login = await t.call("POST", "/api/auth/login", { json: { email: MARK.email, password: TEST_PASSWORD } });
    expect(login.status).toBe(401);
  });

  test("with two-factor on: the first call mails a code (202), a wrong code is refused, the right one deletes", async () => {
    const t = await richUser({ TWO_FACTOR: "all" });
    const first = await del(t, t.token, { password: TEST_PASSWORD });
    expect(first.status).toBe(202);
    expect(first.body.detail).toBe("2FA_REQUIRED");
    const wrong = await del(t, t.token, { password: TEST_PASSWORD, code: "000000" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toBe("Code incorrect ou expiré");
    expect((await t.call("GET", "/api/auth/me", { token: t.token })).status).toBe(200);
    const right = await del(t, t.token, { password: TEST_PASSWORD, code: await lastCode(t.db, MARK.email) });
    expect(right.status).toBe(200);
    expect(await traces(t)).toEqual([]);
  });

  test("with two-factor on, a wrong password never mails a code", async () => {
    const t = await richUser({ TWO_FACTOR: "all" });
    const res = await del(t, t.token, { password: "PasLeBonMotdepasse1" });
    expect(res.status).toBe(403);
    await expect(lastCode(t.db, MARK.email)).rejects.toThrow();
  });

  test("an admin account is not deleted from here (403, French)", async () => {
    const t = await richUser();
    const admin = await makeUser(t.db, t.clock.now(), { isAdmin: true });
    const res = await del(t, admin.token, { password: TEST_PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body.detail).toContain("administrateur");
  });

  test("password guessing is limited: the 11th try in 15 minutes answers 429", async () => {
    const t = await richUser();
    for (let i = 0; i < 10; i++) expect((await del(t, t.token, { password: `Faux${i}` })).status).toBe(403);
    expect((await del(t, t.token, { password: TEST_PASSWORD })).status).toBe(429);
  });

  test("requires a session", async () => {
    const t = await richUser();
    expect((await t.call("DELETE", "/api/auth/account", { json: { password: TEST_PASSWORD } })).status).toBe(401);
  });
});
