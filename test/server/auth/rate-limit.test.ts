import { describe, expect, test } from "bun:test";
import { LOGIN_THROTTLE } from "../../../src/auth/credentials.ts";
import { AUTH_LIMITS } from "../../../src/auth/auth.routes.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser, TEST_PASSWORD } from "../../helpers/fixtures.ts";
import { mails, seedLoginFailures } from "./auth.helpers.ts";

const RATE_DETAIL = "Trop de tentatives. Veuillez réessayer dans quelques instants.";

describe("rate limits of the auth endpoints", () => {
  // Behaviour changed by issue 13: failed logins no longer shut the account, they lock it behind an e-mail code.
  test("login: past the lock, a wrong password answers 429 with a French detail and Retry-After", async () => {
    const { call, db, clock } = await createTestApp();
    const { user } = await makeUser(db, clock.now());
    await seedLoginFailures(db, clock, user.email, LOGIN_THROTTLE.lockAfter);
    const res = await call("POST", "/api/auth/login", { json: { email: user.email, password: "wrong" } });
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ detail: RATE_DETAIL });
    expect(res.headers.get("retry-after")).toBe(String(LOGIN_THROTTLE.windowMs / 1000));
  });

  test("login: the lock lifts when its window is over", async () => {
    const { call, db, clock } = await createTestApp();
    const { user } = await makeUser(db, clock.now());
    await seedLoginFailures(db, clock, user.email, LOGIN_THROTTLE.lockAfter + 1);
    clock.advance(LOGIN_THROTTLE.windowMs);
    const res = await call("POST", "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD } });
    expect(res.status).toBe(200);
  });

  test("login: the lock treats an unknown e-mail the same way", async () => {
    const { call, db, clock } = await createTestApp();
    await seedLoginFailures(db, clock, "nobody@example.fr", LOGIN_THROTTLE.lockAfter);
    expect((await call("POST", "/api/auth/login", { json: { email: "nobody@example.fr", password: "wrong" } })).status).toBe(429);
  });

  test("login: past the per-IP limit one address is refused, another still passes", async () => {
    const { call, db, clock } = await createTestApp();
    const { user } = await makeUser(db, clock.now());
    const { limit } = AUTH_LIMITS.login.ip;
    const from = (ip: string) => ({ "x-forwarded-for": ip });
    // Malformed bodies (no password) still count against the IP, and cost no argon2 hash.
    for (let i = 0; i < limit; i++) {
      await call("POST", "/api/auth/login", { json: { email: `x${i}@example.fr` }, headers: from("203.0.113.7") });
    }
    const blocked = await call("POST", "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD }, headers: from("203.0.113.7") });
    expect(blocked.status).toBe(429);
    expect(blocked.body.detail).toBe(RATE_DETAIL);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    const other = await call("POST", "/api/auth/login", { json: { email: user.email, password: TEST_PASSWORD }, headers: from("203.0.113.8") });
    expect(other.status).toBe(200);
  });

  test("register: past the per-IP limit answers 429 and creates nothing more", async () => {
    const { call } = await createTestApp();
    const { limit } = AUTH_LIMITS.register.ip;
    for (let i = 0; i < limit; i++) {
      await call("POST", "/api/auth/register", { json: { email: "bad", password: "x", first_name: "a", last_name: "b" } });
    }
    const res = await call("POST", "/api/auth/register", { json: { email: "ok@example.fr", password: "s3cret-girafe", first_name: "A", last_name: "B" } });
    expect(res.status).toBe(429);
    const again = await call("POST", "/api/auth/login", { json: { email: "ok@example.fr", password: "s3cret-girafe" } });
    expect(again.status).toBe(401);
  });

  test("forgot-password: past the per-account limit answers 429 and mails nothing more", async () => {
    const { call, db, clock } = await createTestApp();
    const { user } = await makeUser(db, clock.now());
    const { limit } = AUTH_LIMITS.forgotPassword.account;
    for (let i = 0; i < limit; i++) await call("POST", "/api/auth/forgot-password", { json: { email: user.email } });
    const res = await call("POST", "/api/auth/forgot-password", { json: { email: user.email } });
    expect(res.status).toBe(429);
    expect(await mails(db, user.email, "reset")).toHaveLength(limit);
  });

  test("forgot-password: an unknown address meets the same limit (no enumeration)", async () => {
    const { call } = await createTestApp();
    const { limit } = AUTH_LIMITS.forgotPassword.account;
    for (let i = 0; i < limit; i++) await call("POST", "/api/auth/forgot-password", { json: { email: "nobody@example.fr" } });
    expect((await call("POST", "/api/auth/forgot-password", { json: { email: "nobody@example.fr" } })).status).toBe(429);
  });

  test("2fa/verify: past the per-account limit answers 429", async () => {
    const { call, db, clock } = await createTestApp();
    const { user } = await makeUser(db, clock.now(), { isAdmin: true });
    const { limit } = AUTH_LIMITS.twoFactorVerify.account;
    // Without a code requested, wrong codes hit neither the 10-failure lock's mails nor a live code.
    for (let i = 0; i < limit; i++) {
      await call("POST", "/api/auth/2fa/verify", { json: { email: user.email, code: "000000" }, headers: { "x-forwarded-for": `198.51.100.${i}` } });
    }
    const res = await call("POST", "/api/auth/2fa/verify", { json: { email: user.email, code: "000000" }, headers: { "x-forwarded-for": "198.51.100.250" } });
    expect(res.status).toBe(429);
  });

  test("2fa/request: past the per-IP limit answers 429", async () => {
    const { call } = await createTestApp();
    const { limit } = AUTH_LIMITS.twoFactorRequest.ip;
    for (let i = 0; i < limit; i++) await call("POST", "/api/auth/2fa/request", { json: { email: `x${i}@example.fr` } });
    const res = await call("POST", "/api/auth/2fa/request", { json: { email: "y@example.fr", password: "wrong" } });
    expect(res.status).toBe(429);
  });

  test("each app has its own counters: a new app starts from zero", async () => {
    const first = await createTestApp();
    const { limit } = AUTH_LIMITS.forgotPassword.account;
    for (let i = 0; i <= limit; i++) await first.call("POST", "/api/auth/forgot-password", { json: { email: "a@example.fr" } });
    const second = await createTestApp();
    expect((await second.call("POST", "/api/auth/forgot-password", { json: { email: "a@example.fr" } })).status).toBe(200);
  });

  test("over a real connection from a loopback proxy, the last X-Forwarded-For hop is the client", async () => {
    const { app } = await createTestApp();
    const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: app.fetch });
    try {
      const post = (lastHop?: string) =>
        fetch(`http://127.0.0.1:${server.port}/api/auth/login`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(lastHop ? { "x-forwarded-for": `192.0.2.1, ${lastHop}` } : {}) },
          body: JSON.stringify({ email: "x@example.fr" }),
        });
      for (let i = 0; i < AUTH_LIMITS.login.ip.limit; i++) await post("203.0.113.9");
      expect((await post("203.0.113.9")).status).toBe(429);
      expect((await post("192.0.2.1")).status).toBe(400);
      expect((await post()).status).toBe(400);
    } finally {
      server.stop(true);
    }
  });
});
