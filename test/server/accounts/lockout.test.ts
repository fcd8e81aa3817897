import { describe, expect, test } from "bun:test";
import { LOGIN_THROTTLE, loginDelayMs } from "../../../src/auth/credentials.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser, TEST_PASSWORD } from "../../helpers/fixtures.ts";
import { lastCode, mails, seedLoginFailures, wrongCode } from "../auth/auth.helpers.ts";

async function setup(isAdmin: boolean) {
  const t = await createTestApp();
  const { user } = await makeUser(t.db, t.clock.now(), { isAdmin });
  const fromStranger = (i: number) => ({ "x-forwarded-for": `198.51.100.${i % 250}` });
  return { ...t, user, fromStranger };
}

describe("a stranger cannot lock the owner out", () => {
  test("a stranger's wrong passwords never stop the owner, who signs in with the password and an e-mail code", async () => {
    const { call, db, user, fromStranger } = await setup(false);
    // Sent at once, from many addresses: each attempt still counts and waits its turn.
    const attempts = Array.from({ length: LOGIN_THROTTLE.lockAfter + 2 }, (_, i) =>
      call("POST", "/api/auth/login", { json: { email: user.email, password: `guess-${i}` }, headers: fromStranger(i) }),
    );
    const statuses = (await Promise.all(attempts)).map((r) => r.status);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);

    const creds = { email: user.email, password: TEST_PASSWORD };
    const login = await call("POST", "/api/auth/login", { json: creds });
    expect(login.status).toBe(202);
    const pending_login = login.body.pending_login;
    expect((await call("POST", "/api/auth/2fa/request", { json: { ...creds, pending_login } })).status).toBe(200);
    const verified = await call("POST", "/api/auth/2fa/verify", { json: { email: user.email, code: await lastCode(db, user.email), pending_login } });
    expect(verified.status).toBe(200);
    expect((await call("GET", "/api/auth/me", { token: verified.body.token })).status).toBe(200);
    // The completed sign-in cleared the failures: the next login needs no code.
    expect((await call("POST", "/api/auth/login", { json: creds })).status).toBe(200);
  }, 30_000);

  test("a stranger's wrong codes (knowing only the e-mail) never stop the admin's pending login", async () => {
    const { call, db, user, fromStranger } = await setup(true);
    const strangerTries = async (from: number) => {
      for (let i = from; i < from + 15; i++) {
        await call("POST", "/api/auth/2fa/verify", { json: { email: user.email, code: String(100000 + i) }, headers: fromStranger(i) });
      }
    };
    await strangerTries(0);
    const creds = { email: user.email, password: TEST_PASSWORD };
    const { pending_login } = (await call("POST", "/api/auth/login", { json: creds })).body;
    expect((await call("POST", "/api/auth/2fa/request", { json: { ...creds, pending_login } })).status).toBe(200);
    await strangerTries(100);
    const code = await lastCode(db, user.email);
    const res = await call("POST", "/api/auth/2fa/verify", { json: { email: user.email, code, pending_login } });
    expect(res.status).toBe(200);
  });

  test("a code bound to a pending login is not accepted without its id", async () => {
    const { call, db, user } = await setup(true);
    const creds = { email: user.email, password: TEST_PASSWORD };
    const { pending_login } = (await call("POST", "/api/auth/login", { json: creds })).body;
    await call("POST", "/api/auth/2fa/request", { json: { ...creds, pending_login } });
    const code = await lastCode(db, user.email);
    expect((await call("POST", "/api/auth/2fa/verify", { json: { email: user.email, code } })).status).toBe(400);
    expect((await call("POST", "/api/auth/2fa/verify", { json: { email: user.email, code, pending_login } })).status).toBe(200);
  });

  test("a code dies after 5 wrong tries of its own login", async () => {
    const { call, db, user } = await setup(true);
    const creds = { email: user.email, password: TEST_PASSWORD };
    const { pending_login } = (await call("POST", "/api/auth/login", { json: creds })).body;
    await call("POST", "/api/auth/2fa/request", { json: { ...creds, pending_login } });
    const code = await lastCode(db, user.email);
    for (let i = 0; i < 5; i++) await call("POST", "/api/auth/2fa/verify", { json: { email: user.email, code: wrongCode(code), pending_login } });
    expect((await call("POST", "/api/auth/2fa/verify", { json: { email: user.email, code, pending_login } })).status).toBe(400);
  });

  test("wrong passwords at /2fa/request go through the same throttle and mail nothing", async () => {
    const { call, db, clock, user } = await setup(true);
    await seedLoginFailures(db, clock, user.email, LOGIN_THROTTLE.lockAfter);
    const res = await call("POST", "/api/auth/2fa/request", { json: { email: user.email, password: "guess" } });
    expect(res.status).toBe(429);
    expect(await mails(db, user.email, "two_factor")).toHaveLength(0);
  });

  test("failures slow each attempt down progressively, up to a cap", async () => {
    expect(loginDelayMs(LOGIN_THROTTLE.delayAfter - 1)).toBe(0);
    expect(loginDelayMs(LOGIN_THROTTLE.delayAfter + 1)).toBe(2 * loginDelayMs(LOGIN_THROTTLE.delayAfter));
    expect(loginDelayMs(100)).toBe(LOGIN_THROTTLE.maxDelayMs);
    const { call, db, clock, user } = await setup(false);
    await seedLoginFailures(db, clock, user.email, LOGIN_THROTTLE.delayAfter + 1);
    const started = performance.now();
    expect((await call("POST", "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD } })).status).toBe(200);
    // A lower bound only: the wait is a sleep, never shorter than asked.
    expect(performance.now() - started).toBeGreaterThanOrEqual(loginDelayMs(LOGIN_THROTTLE.delayAfter + 1) - 5);
  });
});
