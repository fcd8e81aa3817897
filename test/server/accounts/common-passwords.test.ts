import { describe, expect, test } from "bun:test";
import { dictionary } from "@zxcvbn-ts/language-common";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";
import { lastResetToken } from "../auth/auth.helpers.ts";

const TOO_COMMON = "Ce mot de passe fait partie des plus courants : choisissez-en un plus difficile à deviner.";
const register = (password: string) => ({ email: `u${Math.random().toString(36).slice(2)}@example.fr`, password, first_name: "Léa", last_name: "Petit" });

describe("the most common passwords are refused", () => {
  test("the shipped list holds at least 10,000 passwords", () => {
    expect(dictionary["passwords-common"].length).toBeGreaterThanOrEqual(10_000);
  });

  test("register refuses 123456, azerty and Password1 with a French 400, and creates nothing", async () => {
    const { call } = await createTestApp();
    for (const password of ["123456", "azerty", "soleil", "Password1"]) {
      const body = register(password);
      const res = await call("POST", "/api/auth/register", { json: body });
      expect({ password, status: res.status, detail: res.body.detail }).toEqual({ password, status: 400, detail: TOO_COMMON });
      expect((await call("POST", "/api/auth/login", { json: { email: body.email, password } })).status).toBe(401);
    }
  });

  test("register keeps the 6-character minimum and accepts an uncommon password", async () => {
    const { call } = await createTestApp();
    expect((await call("POST", "/api/auth/register", { json: register("x7#q") })).body.detail).toBe("Le mot de passe doit contenir au moins 6 caractères");
    expect((await call("POST", "/api/auth/register", { json: register("girafe-violette-42") })).status).toBe(200);
  });

  test("reset refuses a common password that meets the form's rules", async () => {
    const { call, db, clock } = await createTestApp();
    const { user } = await makeUser(db, clock.now());
    await call("POST", "/api/auth/forgot-password", { json: { email: user.email } });
    await Bun.sleep(10);
    const token = await lastResetToken(db, user.email);
    const res = await call("POST", "/api/auth/reset-password", { json: { token, new_password: "Password1" } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe(TOO_COMMON);
    expect((await call("POST", "/api/auth/reset-password", { json: { token, new_password: "Girafe-Violette-42" } })).status).toBe(200);
  });
});
