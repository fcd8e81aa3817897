import { describe, expect, test } from "bun:test";
import { users } from "../../../src/db/schema/index.ts";
import { createTestApp } from "../../helpers/app.ts";
import { mails } from "./auth.helpers.ts";

const valid = { email: "camille@example.fr", password: "s3cret-girafe", first_name: "Camille", last_name: "Martin" };

describe("POST /api/auth/register", () => {
  test("creates the account on a 7-day, 5-request trial and answers user and token", async () => {
    const { call } = await createTestApp();
    const res = await call("POST", "/api/auth/register", { json: valid });
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe("string");
    expect(res.body.user).toEqual({
      id: expect.any(Number),
      first_name: "Camille",
      last_name: "Martin",
      email: "camille@example.fr",
      subscription_type: "trial",
      remaining_queries: 5,
      trial_days_remaining: 7,
      is_admin: false,
      created_at: "2026-01-15T10:00:00.000Z",
    });
  });

  test("the token it answers opens a session", async () => {
    const { call } = await createTestApp();
    const { body } = await call("POST", "/api/auth/register", { json: valid });
    const me = await call("GET", "/api/auth/me", { token: body.token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe("camille@example.fr");
  });

  test("stores the e-mail trimmed and lower-cased", async () => {
    const { call } = await createTestApp();
    const res = await call("POST", "/api/auth/register", { json: { ...valid, email: "  Camille@Example.FR " } });
    expect(res.body.user.email).toBe("camille@example.fr");
  });

  test("refuses an e-mail already registered, whatever its case and spaces", async () => {
    const { call, db } = await createTestApp();
    await call("POST", "/api/auth/register", { json: valid });
    const res = await call("POST", "/api/auth/register", { json: { ...valid, email: " CAMILLE@example.fr" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: "Un compte existe déjà avec cette adresse email." });
    expect(await db.select().from(users)).toHaveLength(1);
  });

  test("sends a French welcome mail", async () => {
    const { call, db } = await createTestApp();
    await call("POST", "/api/auth/register", { json: valid });
    const [mail] = await mails(db, "camille@example.fr", "welcome");
    expect(mail?.subject).toBe("Bienvenue sur Unisson");
    expect(mail?.text).toContain("5 requêtes pendant 7 jours");
    expect(mail?.html).toContain("Bonjour Camille");
  });

  test("normalises names to NFC and trims them", async () => {
    const { call } = await createTestApp();
    const decomposed = "Ele\u0301onore";
    const res = await call("POST", "/api/auth/register", { json: { ...valid, first_name: `  ${decomposed} ` } });
    expect(res.body.user.first_name).toBe("El\u00e9onore");
  });

  test("escapes a name in the welcome mail's HTML", async () => {
    const { call, db } = await createTestApp();
    await call("POST", "/api/auth/register", { json: { ...valid, first_name: "<b>Jo</b>" } });
    expect((await mails(db, valid.email, "welcome"))[0]?.html).toContain("Bonjour &lt;b&gt;Jo&lt;/b&gt;");
  });

  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["a missing first name", { first_name: undefined }, "Le prénom est requis"],
    ["a blank first name", { first_name: "   " }, "Le prénom est requis"],
    ["a missing last name", { last_name: undefined }, "Le nom est requis"],
    ["a missing e-mail", { email: undefined }, "L'email est requis"],
    ["a malformed e-mail", { email: "camille@" }, "Format d'email invalide"],
    ["a missing password", { password: undefined }, "Le mot de passe est requis"],
    ["a 5-character password", { password: "abcde" }, "Le mot de passe doit contenir au moins 6 caractères"],
    ["a control character in a name", { last_name: "Mar\u0007tin" }, "Ce champ contient des caractères non autorisés."],
    ["a bidi override in a name", { last_name: "Mar\u202etin" }, "Ce champ contient des caractères non autorisés."],
    ["a name of 101 characters", { last_name: "a".repeat(101) }, "Ce champ est trop long (100 caractères au plus)."],
  ];
  for (const [what, change, detail] of cases) {
    test(`refuses ${what} with the spec's French message and stores nothing`, async () => {
      const { call, db } = await createTestApp();
      const res = await call("POST", "/api/auth/register", { json: { ...valid, ...change } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ detail });
      expect(await db.select().from(users)).toHaveLength(0);
    });
  }

  test("refuses a number where a name is expected with a French message", async () => {
    const { call } = await createTestApp();
    const res = await call("POST", "/api/auth/register", { json: { ...valid, first_name: 42 } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Le prénom est requis");
  });

  test("refuses a body that is not JSON", async () => {
    const { app } = await createTestApp();
    const res = await app.request("/api/auth/register", { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" });
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toBe("Le corps de la requête doit être un JSON valide.");
  });

  test("refuses a huge body with 413", async () => {
    const { call } = await createTestApp();
    const res = await call("POST", "/api/auth/register", { json: { ...valid, first_name: "a".repeat(400_000) } });
    expect(res.status).toBe(413);
    expect(res.body.detail).toBe("Requête trop volumineuse.");
  });
});
