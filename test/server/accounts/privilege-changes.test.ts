import { describe, expect, test } from "bun:test";
import { openDb } from "../../../src/db/client.ts";
import { DAY } from "../../../src/lib/clock.ts";
import { setAdmin } from "../../../src/admin/admin.service.ts";
import { createTestApp } from "../../helpers/app.ts";
import { dbPath, runCli, useDataDirs } from "../../helpers/cli.ts";
import { onPostgres } from "../../helpers/test-database.ts";
import { makeUser, TEST_PASSWORD } from "../../helpers/fixtures.ts";
import { deviceCookie, lastCode } from "../auth/auth.helpers.ts";

const dataDir = useDataDirs();

describe("privilege changes end the account's other sessions", () => {
  test("`unisson users set-admin on` does not hand admin rights to a session opened before", async () => {
    // The CLI on the app's database: the data folder's SQLite file, or the PostgreSQL database named by DATABASE_URL
    // (an empty folder then: making a SQLite one here would open SQLite, and a process has one dialect).
    const dir = await dataDir({ empty: onPostgres });
    const { call, db, clock, config } = onPostgres ? await createTestApp() : await createTestApp({ deps: { db: openDb(dbPath(dir)) } });
    const { user, token } = await makeUser(db, clock.now(), { email: "future-admin@example.fr" });
    expect((await call("GET", "/api/admin/stats", { token })).status).toBe(403);
    const cliEnv: Record<string, string> = onPostgres ? { DATABASE_URL: config.databaseUrl! } : {};
    expect(runCli(["users", "set-admin", user.email, "on"], dir, cliEnv).code).toBe(0);
    expect((await call("GET", "/api/admin/stats", { token })).status).toBe(401);
    expect((await call("GET", "/api/auth/me", { token })).status).toBe(401);
  });

  test("set-admin off ends the old admin session", async () => {
    const { call, deps, db, clock } = await createTestApp();
    const { user, token } = await makeUser(db, clock.now(), { isAdmin: true });
    expect((await call("GET", "/api/admin/stats", { token })).status).toBe(200);
    await setAdmin(deps, user.id, false);
    expect((await call("GET", "/api/auth/me", { token })).status).toBe(401);
  });

  test("set-admin forgets remembered devices: the next admin login asks for the e-mail code again", async () => {
    const { call, deps, db, clock } = await createTestApp();
    const { user } = await makeUser(db, clock.now(), { isAdmin: true });
    const creds = { email: user.email, password: TEST_PASSWORD };
    expect((await call("POST", "/api/auth/login", { json: creds })).status).toBe(202);
    await call("POST", "/api/auth/2fa/request", { json: creds });
    const verified = await call("POST", "/api/auth/2fa/verify", { json: { email: user.email, code: await lastCode(db, user.email), remember_device: true } });
    const cookie = deviceCookie(verified.headers)!;
    expect((await call("POST", "/api/auth/login", { json: creds, headers: { cookie } })).status).toBe(200);
    await setAdmin(deps, user.id, false);
    await setAdmin(deps, user.id, true);
    expect((await call("POST", "/api/auth/login", { json: creds, headers: { cookie } })).status).toBe(202);
  });

  test("an admin changing a user's e-mail ends that user's sessions", async () => {
    const { call, db, clock } = await createTestApp();
    const admin = await makeUser(db, clock.now(), { isAdmin: true });
    const { user, token } = await makeUser(db, clock.now());
    const body = { first_name: user.firstName, last_name: user.lastName, email: "new-address@example.fr" };
    expect((await call("PUT", `/api/admin/users/${user.id}`, { token: admin.token, json: body })).status).toBe(200);
    expect((await call("GET", "/api/auth/me", { token })).status).toBe(401);
    expect((await call("GET", "/api/auth/me", { token: admin.token })).status).toBe(200);
  });

  test("a session used every day still ends 90 days after sign-in", async () => {
    const { call, db, clock } = await createTestApp();
    const { token } = await makeUser(db, clock.now());
    for (let day = 1; day < 90; day++) {
      clock.advance(DAY);
      expect((await call("GET", "/api/auth/me", { token })).status).toBe(200);
    }
    clock.advance(DAY);
    expect((await call("GET", "/api/auth/me", { token })).status).toBe(401);
  });
});
