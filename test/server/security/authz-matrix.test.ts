import { describe, expect, test } from "bun:test";
import { MATRIX } from "./matrix.ts";
import { buildWorld, IDENTITIES, useOutside } from "./world.ts";

/**
 * The authorization matrix: every route of the app x {no session, expired
 * session, user, other user, admin} -> the status it must answer (matrix.ts).
 * The first test reads the app's own route table (Hono's app.routes), so a
 * route added without a row fails the suite. Each cell runs on a fresh
 * world, so no cell sees another's writes (a logout, a deletion).
 */
const outside = useOutside();

/** The app's own routes, as Hono lists them; ALL entries are middleware and the /api 404 fallback. */
async function appRoutes(): Promise<string[]> {
  const w = await buildWorld(outside());
  return [...new Set(w.app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`))].sort();
}

describe("authorization matrix", () => {
  test("every route of the app has a row, and every row is a route of the app", async () => {
    expect(Object.keys(MATRIX).sort()).toEqual(await appRoutes());
  });

  for (const [route, row] of Object.entries(MATRIX)) {
    test(`${route} -> none ${row.expect[0]}, expired ${row.expect[1]}, user ${row.expect[2]}, other ${row.expect[3]}, admin ${row.expect[4]}`, async () => {
      const method = route.split(" ")[0]!;
      const got: number[] = [];
      for (const who of IDENTITIES) {
        const w = await buildWorld(outside());
        const { path, json, headers } = row.req(w);
        const res = await w.call(method, path, { json, token: w.tokens[who], headers });
        got.push(res.status);
      }
      expect(got).toEqual(row.expect);
    });
  }
});
