import { describe, expect, test } from "bun:test";
import { findUserByEmail } from "../../../src/users/users.queries.ts";
import { ensureAdmin } from "../../../src/users/admin-bootstrap.ts";
import { createTestApp } from "../../helpers/app.ts";

const ADMIN = "operator@example.fr";

describe("admin bootstrap (ADMIN_EMAIL)", () => {
  test("an account registered with ADMIN_EMAIL before the first start is not promoted, and says what to do", async () => {
    const { call, deps, db, log } = await createTestApp({ env: { ADMIN_EMAIL: ADMIN, ADMIN_PASSWORD: "Operator-Pass-1" } });
    const attacker = await call("POST", "/api/auth/register", { json: { email: ADMIN, password: "attacker-pw", first_name: "A", last_name: "B" } });
    expect(attacker.status).toBe(200);
    await ensureAdmin(deps);
    expect((await findUserByEmail(db, ADMIN))?.isAdmin).toBe(false);
    expect((await call("GET", "/api/admin/stats", { token: attacker.body.token })).status).toBe(403);
    const lines = log.lines.filter((l) => l.includes("ADMIN_EMAIL"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`unisson users set-admin ${ADMIN} on`);
    // The operator's ADMIN_PASSWORD does not open the attacker's account either.
    expect((await call("POST", "/api/auth/login", { json: { email: ADMIN, password: "Operator-Pass-1" } })).status).toBe(401);
  });

  test("without an account, the admin is created and a generated password is written once through the logger", async () => {
    const { deps, db, log } = await createTestApp({ env: { ADMIN_EMAIL: ADMIN } });
    await ensureAdmin(deps);
    expect((await findUserByEmail(db, ADMIN))?.isAdmin).toBe(true);
    const printed = log.lines.filter((l) => l.includes("affiché une seule fois"));
    expect(printed).toHaveLength(1);
    const password = printed[0]!.match(/: (\S{12,})$/)?.[1];
    expect(password).toBeDefined();
    await ensureAdmin(deps);
    expect(log.lines.filter((l) => l.includes("affiché une seule fois"))).toHaveLength(1);
  });
});
