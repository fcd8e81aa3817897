import { describe, expect, test } from "bun:test";
import { MAX_BODY_BYTES } from "../../../src/app.ts";
import { users } from "../../../src/db/schema/index.ts";
import { HISTORY_BYTES } from "../../../src/openai/v1-body.ts";
import { rowCounts } from "../../helpers/row-counts.ts";
import { onPostgres } from "../../helpers/test-database.ts";
import { eq } from "drizzle-orm";
import { MATRIX } from "./matrix.ts";
import { buildWorld, type Identity, useOutside, type World } from "./world.ts";

/**
 * Hostile input on every JSON endpoint of the app (the rows of matrix.ts
 * that send a body): SQL metacharacters in every field, bodies past the
 * limit, deeply nested JSON. The product answers a French 4xx or a normal
 * 2xx, never a 5xx, and the database stays whole.
 */
const outside = useOutside();

const SQL_PAYLOADS = [`' OR '1'='1`, `"; DROP TABLE users; --`, `Robert'); DROP TABLE conversations;--`, `1 UNION SELECT password_hash FROM users`, `%_\\`];

/** Enough of a world to ask each row whether its request carries a body. */
const STUB = {
  user: { email: "a@example.fr" },
  admin: { email: "b@example.fr" },
  target: { id: 1, email: "c@example.fr" },
  conversationId: 1,
  checkoutSessionId: "cs_x",
} as unknown as World;
const JSON_ROUTES = Object.entries(MATRIX).filter(([, row]) => row.req(STUB).json !== undefined);

/** The most privileged caller a row lets through: the admin for admin routes, else the user. */
function callerOf(route: string): Identity {
  return route.includes("/admin/") ? "admin" : "user";
}

async function send(w: World, route: string, json: unknown) {
  const [method] = route.split(" ");
  // /v1 opens only to a personal API key.
  const token = route.includes(" /v1/") ? w.apiKeySecret : w.tokens[callerOf(route)];
  return w.call(method!, MATRIX[route]!.req(w).path, { json, token, headers: { "x-forwarded-for": `10.9.${Math.floor(Math.random() * 250)}.1` } });
}

function expectCleanAnswer(res: { status: number; body: any }) {
  expect(res.status).toBeLessThan(500);
  // The house's { detail }, or OpenAI's { error: { message } } on /v1.
  if (res.status >= 400) expect(typeof (res.body.detail ?? res.body.error?.message)).toBe("string");
}

async function expectDatabaseWhole(w: World) {
  // SQLite can check its file's structure; PostgreSQL has no such statement (its pages are checksummed by the server).
  if (!onPostgres) expect(w.db.$client.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
  const tables = Object.keys(await rowCounts(w.db));
  expect(tables).toEqual(expect.arrayContaining(["users", "sessions", "conversations", "messages", "purchases"]));
  // The five users of the world are all still there, with their e-mails unchanged.
  for (const u of [w.user, w.other, w.admin])
    expect(await w.db.select({ email: users.email }).from(users).where(eq(users.id, u.id))).toEqual([{ email: u.email }]);
}

describe("hostile input on every JSON endpoint", () => {
  for (const [route, row] of JSON_ROUTES) {
    test(`${route}: SQL metacharacters in every field get a 2xx or a French 4xx and leave the database whole`, async () => {
      const w = await buildWorld(outside());
      const base = row.req(w).json;
      const fields = base && typeof base === "object" ? Object.keys(base) : [];
      for (const field of fields) {
        for (const payload of SQL_PAYLOADS) expectCleanAnswer(await send(w, route, { ...(base as object), [field]: payload }));
      }
      await expectDatabaseWhole(w);
    }, 30_000);
  }

  test("a body past the limit gets 413 with a French message on every JSON endpoint", async () => {
    const w = await buildWorld(outside());
    for (const [route] of JSON_ROUTES) {
      // /v1 takes a chat app's whole thread (4 MiB without files, src/openai/v1-body.ts), refused past it with its own words.
      const v1 = route.includes(" /v1/");
      const huge = { message: "a".repeat((v1 ? HISTORY_BYTES : MAX_BODY_BYTES) + 1) };
      const res = await send(w, route, huge);
      const told = v1
        ? "Requête trop volumineuse : la conversation envoyée dépasse 4 Mio. Seuls les derniers messages servent au conseil : envoyez moins d'historique."
        : "Requête trop volumineuse.";
      expect([route, res.status, res.body.detail ?? res.body.error?.message]).toEqual([route, 413, told]);
    }
  });

  test("JSON nested 50,000 levels deep (inside the size limit) gets a 4xx on every JSON endpoint", async () => {
    const w = await buildWorld(outside());
    const deep = `${"[".repeat(50_000)}${"]".repeat(50_000)}`;
    for (const [route] of JSON_ROUTES) {
      const res = await w.app.request(MATRIX[route]!.req(w).path, {
        method: route.split(" ")[0],
        headers: { "content-type": "application/json", authorization: `Bearer ${w.tokens[callerOf(route)]}` },
        body: `{"message":${deep},"email":${deep}}`,
      });
      expect([route, res.status >= 400 && res.status < 500]).toEqual([route, true]);
    }
    await expectDatabaseWhole(w);
  });

  test("SQL metacharacters in path parameters are refused or read as plain text", async () => {
    const w = await buildWorld(outside());
    const token = w.tokens.user;
    const attempts = [
      `/api/unisson/conversation/${encodeURIComponent(`${w.conversationId} OR 1=1`)}`,
      `/api/stripe/checkout-status/${encodeURIComponent(`cs_x' OR '1'='1`)}`,
      `/api/stripe/upgrade-price/${encodeURIComponent(`subscription_pro' --`)}`,
    ];
    for (const path of attempts) expect((await w.call("GET", path, { token })).status).toBe(400);
    const reset = await w.call("GET", `/api/auth/validate-reset-token/${encodeURIComponent(`' OR '1'='1`)}`);
    expect(reset.body.valid).toBe(false);
    await expectDatabaseWhole(w);
  });

  test("the admin search treats quotes and LIKE wildcards as text, not as SQL or patterns", async () => {
    const w = await buildWorld(outside());
    for (const q of [`' OR '1'='1`, "%", "_", `%' --`]) {
      const res = await w.call("GET", `/api/admin/users?q=${encodeURIComponent(q)}`, { token: w.tokens.admin });
      expect([q, res.status, res.body.total]).toEqual([q, 200, 0]);
    }
  });
});
