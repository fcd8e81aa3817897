import { describe, expect, test } from "bun:test";
import { DAY, MINUTE } from "../../../src/lib/clock.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser, TEST_PASSWORD } from "../../helpers/fixtures.ts";
import { deviceCookie, lastCode, mails, wrongCode } from "./auth.helpers.ts";

async function setup(env: Record<string, string> = {}) {
  const t = await createTestApp({ env });
  const { user } = await makeUser(t.db, t.clock.now(), { isAdmin: true });
  const creds = { email: user.email, password: TEST_PASSWORD };
  const request = () => t.call("POST", "/api/auth/2fa/request", { json: creds });
  const verify = (code: string, remember_device = false, headers: Record<string, string> = {}) =>
    t.call("POST", "/api/auth/2fa/verify", { json: { email: user.email, code, remember_device }, headers });
  const login = (headers: Record<string, string> = {}) => t.call("POST", "/api/auth/login", { json: creds, headers });
  return { ...t, user, request, verify, login };
}

describe("POST /api/auth/2fa/request", () => {
  test("mails a 6-digit code and answers success with a French message", async () => {
    const { request, db, user } = await setup();
    const res = await request();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: "Un code de vérification a été envoyé à votre adresse email." });
    const [mail] = await mails(db, user.email, "two_factor");
    expect(mail?.text).toMatch(/\b\d{6}\b/);
    expect(mail?.text).toContain("valable 10 minutes");
  });

  test("re-checks the password: a wrong one answers 401 and sends nothing", async () => {
    const { call, db, user } = await setup();
    const res = await call("POST", "/api/auth/2fa/request", { json: { email: user.email, password: "wrong-password" } });
    expect(res.status).toBe(401);
    expect(await mails(db, user.email, "two_factor")).toHaveLength(0);
  });

  test("refuses a new request within 60 seconds with 429, a French detail and Retry-After", async () => {
    const { request, clock } = await setup();
    await request();
    clock.advance(45_000);
    const res = await request();
    expect(res.status).toBe(429);
    expect(res.body.detail).toBe("Veuillez patienter 60 secondes avant de demander un nouveau code.");
    expect(res.headers.get("retry-after")).toBe("15");
  });

  test("accepts a new request once 60 seconds have passed", async () => {
    const { request, clock } = await setup();
    await request();
    clock.advance(60_000);
    expect((await request()).status).toBe(200);
  });

  test("a new code kills the old one", async () => {
    const { request, verify, clock, db, user } = await setup();
    await request();
    const first = await lastCode(db, user.email);
    clock.advance(61_000);
    await request();
    const second = await lastCode(db, user.email);
    if (first !== second) expect((await verify(first)).status).toBe(400);
    expect((await verify(second)).status).toBe(200);
  });
});

describe("POST /api/auth/2fa/verify", () => {
  test("the mailed code signs in: user and a working token", async () => {
    const { request, verify, call, db, user } = await setup();
    await request();
    const res = await verify(await lastCode(db, user.email));
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
    expect((await call("GET", "/api/auth/me", { token: res.body.token })).status).toBe(200);
  });

  test("a wrong code answers 400 'Code incorrect ou expiré'", async () => {
    const { request, verify, db, user } = await setup();
    await request();
    const res = await verify(wrongCode(await lastCode(db, user.email)));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: "Code incorrect ou expiré" });
  });

  test("a code is refused once its 10 minutes are over", async () => {
    const { request, verify, clock, db, user } = await setup();
    await request();
    clock.advance(10 * MINUTE);
    const res = await verify(await lastCode(db, user.email));
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Code incorrect ou expiré");
  });

  test("a code still works just before its 10 minutes are over", async () => {
    const { request, verify, clock, db, user } = await setup();
    await request();
    clock.advance(10 * MINUTE - 1000);
    expect((await verify(await lastCode(db, user.email))).status).toBe(200);
  });

  test("a code works once only", async () => {
    const { request, verify, db, user } = await setup();
    await request();
    const code = await lastCode(db, user.email);
    await verify(code);
    expect((await verify(code)).status).toBe(400);
  });

  test("after 5 wrong tries the right code is refused too", async () => {
    const { request, verify, db, user } = await setup();
    await request();
    const code = await lastCode(db, user.email);
    for (let i = 0; i < 5; i++) await verify(wrongCode(code));
    expect((await verify(code)).status).toBe(400);
  });

  test("after 4 wrong tries the right code still works", async () => {
    const { request, verify, db, user } = await setup();
    await request();
    const code = await lastCode(db, user.email);
    for (let i = 0; i < 4; i++) await verify(wrongCode(code));
    expect((await verify(code)).status).toBe(200);
  });

  // Behaviour changed by issue 13: wrong codes kill their code, never the account (no 10-failure lock).
  test("10 wrong codes over two codes lock nothing: a fresh code still signs in", async () => {
    const { request, verify, clock, db, user } = await setup();
    for (let round = 0; round < 2; round++) {
      await request();
      const code = await lastCode(db, user.email);
      for (let i = 0; i < 5; i++) await verify(wrongCode(code));
      clock.advance(61_000);
    }
    expect((await request()).status).toBe(200);
    expect((await verify(await lastCode(db, user.email))).status).toBe(200);
  });

  test("refuses a code that is not 6 digits with the spec's message", async () => {
    const { verify } = await setup();
    const res = await verify("12a456");
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Veuillez saisir un code à 6 chiffres");
  });

  test("an unknown e-mail answers the same 400 as a wrong code", async () => {
    const { call } = await setup();
    const res = await call("POST", "/api/auth/2fa/verify", { json: { email: "nobody@example.fr", code: "123456", remember_device: false } });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe("Code incorrect ou expiré");
  });
});

describe("remembered device", () => {
  test("remember_device sets an HttpOnly, SameSite=Lax, 30-day cookie on /api/auth", async () => {
    const { request, verify, db, user } = await setup();
    await request();
    const res = await verify(await lastCode(db, user.email), true);
    const set = res.headers.get("set-cookie") ?? "";
    expect(set).toContain("unisson_device=");
    expect(set).toContain("HttpOnly");
    expect(set).toContain("SameSite=Lax");
    expect(set).toContain("Path=/api/auth");
    expect(set).toContain(`Max-Age=${30 * 24 * 3600}`);
    expect(set).not.toContain("Secure");
  });

  test("the cookie is Secure when PUBLIC_URL is https", async () => {
    const { request, verify, db, user } = await setup({ PUBLIC_URL: "https://unisson.example.fr" });
    await request();
    const res = await verify(await lastCode(db, user.email), true);
    expect(res.headers.get("set-cookie")).toContain("Secure");
  });

  test("without remember_device no cookie is set", async () => {
    const { request, verify, db, user } = await setup();
    await request();
    const res = await verify(await lastCode(db, user.email), false);
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  test("a remembered device logs in without two-factor", async () => {
    const { request, verify, login, db, user } = await setup();
    await request();
    const cookie = deviceCookie((await verify(await lastCode(db, user.email), true)).headers)!;
    const res = await login({ cookie });
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe("string");
  });

  test("another device (no cookie) still gets two-factor", async () => {
    const { request, verify, login, db, user } = await setup();
    await request();
    await verify(await lastCode(db, user.email), true);
    expect((await login()).status).toBe(202);
  });

  test("the device is forgotten after 30 days", async () => {
    const { request, verify, login, clock, db, user } = await setup();
    await request();
    const cookie = deviceCookie((await verify(await lastCode(db, user.email), true)).headers)!;
    clock.advance(30 * DAY + 1000);
    expect((await login({ cookie })).status).toBe(202);
  });

  test("one user's device cookie does not skip two-factor for another account", async () => {
    const t = await setup();
    await t.request();
    const cookie = deviceCookie((await t.verify(await lastCode(t.db, t.user.email), true)).headers)!;
    const { user: other } = await makeUser(t.db, t.clock.now(), { isAdmin: true });
    const res = await t.call("POST", "/api/auth/login", { json: { email: other.email, password: TEST_PASSWORD }, headers: { cookie } });
    expect(res.status).toBe(202);
  });
});

describe("a used or ended code never holds back a new one (issue 30)", () => {
  test("signing in again within 60 seconds of a successful sign-in gets a fresh code at once", async () => {
    const { request, verify, login, clock, db, user } = await setup();
    expect((await request()).status).toBe(200);
    expect((await verify(await lastCode(db, user.email))).status).toBe(200);
    clock.advance(10_000);
    expect((await login()).status).toBe(202);
    const again = await request();
    expect(again.status).toBe(200);
    expect(await mails(db, user.email, "two_factor")).toHaveLength(2);
    expect((await verify(await lastCode(db, user.email))).status).toBe(200);
  });

  test("a code ended by 5 wrong tries does not hold back a new one", async () => {
    const { request, verify, db, user } = await setup();
    await request();
    const right = await lastCode(db, user.email);
    for (let i = 0; i < 5; i++) expect((await verify(wrongCode(right))).status).toBe(400);
    expect((await request()).status).toBe(200);
    expect((await verify(await lastCode(db, user.email))).status).toBe(200);
  });
});
