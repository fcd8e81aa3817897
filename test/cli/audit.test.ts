import { describe, expect, test } from "bun:test";
import { listAudit } from "../../src/admin/audit-log.ts";
import { createTestApp } from "../helpers/app.ts";
import { runCli, useDataDirs, withDb } from "../helpers/cli.ts";
import { makeUser } from "../helpers/fixtures.ts";

const dataDir = useDataDirs();

describe("audit log of admin and CLI actions", () => {
  test("CLI changes are recorded with who, when and what changed; `audit --user E --json` lists them newest first", async () => {
    const dir = await dataDir();
    await withDb(dir, async (db) => await makeUser(db, new Date(), { email: "lea@example.fr" }));
    expect(runCli(["users", "set-admin", "lea@example.fr", "on"], dir).code).toBe(0);
    expect(runCli(["users", "grant", "lea@example.fr", "3"], dir).code).toBe(0);
    expect(runCli(["users", "update", "lea@example.fr", "--email", "lea.petit@example.fr"], dir).code).toBe(0);
    const r = runCli(["audit", "--user", "lea@example.fr", "--json"], dir);
    expect(r.code).toBe(0);
    const entries = r.json();
    expect(entries.map((e: { action: string }) => e.action)).toEqual(["user.update", "user.grant", "user.set_admin"]);
    expect(entries[2]).toMatchObject({ actor: expect.stringMatching(/^cli/), target: "lea@example.fr", changes: { is_admin: [false, true] } });
    expect(entries[1].changes).toEqual({ extra_queries: [0, 3] });
    expect(entries[0].changes.email).toEqual(["lea@example.fr", "lea.petit@example.fr"]);
    expect(Date.parse(entries[0].at)).toBeGreaterThan(Date.now() - 60_000);
    const human = runCli(["audit"], dir);
    expect(human.stdout).toContain("user.set_admin");
    expect(human.stdout).toContain("is_admin: false → true");
  });

  test("an edit and a delete through the admin API are recorded with the admin who made them", async () => {
    const { call, db, clock } = await createTestApp();
    const admin = await makeUser(db, clock.now(), { isAdmin: true });
    const { user } = await makeUser(db, clock.now());
    const body = { first_name: "Nouveau", last_name: user.lastName, email: user.email, subscription_type: "pro" };
    expect((await call("PUT", `/api/admin/users/${user.id}`, { token: admin.token, json: body })).status).toBe(200);
    expect((await call("DELETE", `/api/admin/users/${user.id}`, { token: admin.token })).status).toBe(200);
    const [deleted, updated] = await listAudit(db, { email: user.email });
    expect(deleted).toMatchObject({ action: "user.delete", actor: `admin:${admin.user.id} ${admin.user.email}` });
    expect(updated).toMatchObject({ action: "user.update", actor: `admin:${admin.user.id} ${admin.user.email}` });
    expect(updated?.changes).toMatchObject({ first_name: ["Camille", "Nouveau"], subscription_type: ["trial", "pro"] });
  });
});
