import { describe, expect, test } from "bun:test";
import { MATRIX } from "./matrix.ts";
import { buildWorld, IDENTITIES, type Identity, useOutside, type World } from "./world.ts";

/**
 * The authorization matrix: every route of the app x {no session, expired
 * session, user, other user, admin} -> the status it must answer (matrix.ts).
 * The first test reads the app's own route table (Hono's app.routes), so a
 * route added without a row fails the suite.
 *
 * No cell may see another's writes (a logout, a deletion): a cell that
 * should succeed with a method that writes gets a fresh world of its own.
 * The cells that should be refused share one world, and run before any
 * success of their row on it: a refusal writes nothing another cell reads
 * (one that did would have to answer 2xx to matter, and fail its own cell),
 * and no earlier success can have removed what a refused caller asks for,
 * which would hide a missing check behind a 404. A GET writes nothing, so
 * a GET row's successes share that world too: 120 worlds instead of 355,
 * each a database, five accounts, a question and a checkout.
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
      const succeeds = (who: Identity) => row.expect[IDENTITIES.indexOf(who)]! < 300;
      let shared: World | undefined;
      const got = new Map<Identity, number>();
      for (const who of [...IDENTITIES.filter((i) => !succeeds(i)), ...IDENTITIES.filter(succeeds)]) {
        const ownWorld = succeeds(who) && method !== "GET";
        const w = ownWorld ? await buildWorld(outside()) : (shared ??= await buildWorld(outside()));
        const { path, json, headers } = row.req(w);
        const res = await w.call(method, path, { json, token: w.tokens[who], headers });
        got.set(who, res.status);
      }
      expect(IDENTITIES.map((who) => got.get(who))).toEqual(row.expect);
    });
  }
});
