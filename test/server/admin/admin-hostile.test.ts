import { first } from "../../../src/db/transaction.ts";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { users } from "../../../src/db/schema/index.ts";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";

describe("admin edit under hostile input", () => {
  test("any JSON value in any field answers 200 or a French 400, and a 400 stores nothing", async () => {
    const t = await createTestApp();
    const admin = await makeUser(t.db, t.clock.now(), { isAdmin: true });
    const target = (await makeUser(t.db, t.clock.now())).user;
    const field = fc.oneof(fc.jsonValue(), fc.string(), fc.integer(), fc.constantFrom("trial", "pro", "a@b.fr", "", " "));
    const body = fc.record(
      { first_name: field, last_name: field, email: field, subscription_type: field, remaining_queries: field, trial_days_remaining: field },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(body, async (json) => {
        const before = await first(t.db.select().from(users).where(eq(users.id, target.id)));
        const res = await t.call("PUT", `/api/admin/users/${target.id}`, { json, token: admin.token });
        expect([200, 400]).toContain(res.status);
        if (res.status === 400) {
          expect(typeof res.body.detail).toBe("string");
          expect(res.body.detail).not.toMatch(/\n\s+at |Error:/);
          expect(await first(t.db.select().from(users).where(eq(users.id, target.id)))).toEqual(before);
        }
      }),
      { numRuns: 150 },
    );
  });
});
