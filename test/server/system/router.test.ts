import { describe, expect, test } from "bun:test";
import { createTestApp } from "../../helpers/app.ts";

/**
 * Hono's SmartRouter picks RegExpRouter (one regular expression for all the
 * routes) unless a pair of routes cannot be told apart by it, e.g. a fixed
 * path beside a parameter at the same place (GET /x/limits beside GET
 * /x/:id); it then falls back to TrieRouter for the whole app, ~0.75 µs more
 * on every request (docs/BENCHMARKS.md, "Fourth round").
 */
describe("routing", () => {
  test("every route of the app fits Hono's RegExpRouter", async () => {
    const { app } = await createTestApp();
    expect((await app.request("/api/health")).status).toBe(200);
    expect(app.router.name).toBe("SmartRouter + RegExpRouter");
  });
});
