import { describe, expect, test } from "bun:test";
import { rowCounts } from "../../helpers/row-counts.ts";
import { MATRIX } from "./matrix.ts";
import { buildWorld, ORIGIN, useOutside, type World } from "./world.ts";

/**
 * Requests made by another site: a page elsewhere that posts to Unisson with
 * the victim's credentials (CSRF), reads its answers (CORS), or turns the
 * checkout's return address into a redirect to itself (open redirect).
 */
const outside = useOutside();
const EVIL = "https://evil.example";
const CROSS_ORIGIN = "Requête refusée : elle ne provient pas de Unisson.";

/** Every row count of every table: a refused request must leave all of them as they were. */
function snapshot(w: World): Promise<Record<string, number>> {
  return rowCounts(w.db);
}

/** /v1 takes only a personal API key, sent by the client in a header: no browser attaches one by itself (tested below). */
const WRITES = Object.entries(MATRIX).filter(([route]) => !route.startsWith("GET") && !route.includes(" /v1/"));

describe("CSRF: state-changing requests from another origin", () => {
  for (const [route, row] of WRITES) {
    test(`${route} from ${EVIL} with a valid session is refused with 403 and changes nothing`, async () => {
      const w = await buildWorld(outside());
      const before = await snapshot(w);
      const token = route.includes("/admin/") ? w.tokens.admin : w.tokens.user;
      const { path, json } = row.req(w);
      const res = await w.call(route.split(" ")[0]!, path, { json, token, headers: { origin: EVIL } });
      expect([res.status, res.body.detail]).toEqual([403, CROSS_ORIGIN]);
      expect(await snapshot(w)).toEqual(before);
      // The session the forged request carried is still the user's, unharmed.
      expect((await w.call("GET", "/api/auth/me", { token })).status).toBe(200);
    });
  }

  test("a /v1 completion from another origin carrying a web session is refused (401, OpenAI's shape) and changes nothing", async () => {
    const w = await buildWorld(outside());
    const before = await snapshot(w);
    const { path, json } = MATRIX["POST /v1/chat/completions"]!.req(w);
    const res = await w.call("POST", path, { json, token: w.tokens.user, headers: { origin: EVIL } });
    expect([res.status, res.body.error?.code]).toEqual([401, "invalid_api_key"]);
    expect(await snapshot(w)).toEqual(before);
  });

  for (const origin of ["null", "http://localhost:3000.evil.example", "http://localhost:3001", "https://localhost:3000"]) {
    test(`a chat posted with Origin ${origin} is refused`, async () => {
      const w = await buildWorld(outside());
      const res = await w.call("POST", "/api/unisson/chat", { token: w.tokens.user, json: { message: "Bonjour ?" }, headers: { origin } });
      expect(res.status).toBe(403);
    });
  }

  test("a chat posted from Unisson's own origin passes", async () => {
    const w = await buildWorld(outside());
    const res = await w.call("POST", "/api/unisson/chat", { token: w.tokens.user, json: { message: "Bonjour ?" }, headers: { origin: ORIGIN } });
    expect(res.status).toBe(200);
  });

  test("no answer grants another origin the right to read it (no CORS header)", async () => {
    const w = await buildWorld(outside());
    for (const path of ["/api/auth/me", "/api/unisson/history", "/api/health", "/"]) {
      const res = await w.call("GET", path, { token: w.tokens.user, headers: { origin: EVIL } });
      expect([path, res.headers.get("access-control-allow-origin")]).toEqual([path, null]);
    }
    const preflight = await w.app.request("/api/unisson/chat", { method: "OPTIONS", headers: { origin: EVIL, "access-control-request-method": "POST" } });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("open redirect through the checkout's origin_url", () => {
  const attempts = [
    EVIL,
    "//evil.example",
    "http://localhost:3000@evil.example",
    "http://localhost:3000.evil.example",
    "http://evil.example/http://localhost:3000",
    "javascript:alert(document.cookie)",
    "data:text/html,<script>alert(1)</script>",
    "http://localhost:3001",
    "https://localhost:3000",
    "/\\evil.example",
  ];
  for (const origin_url of attempts) {
    test(`origin_url ${JSON.stringify(origin_url)} is refused with 400 and opens no Stripe session`, async () => {
      const w = await buildWorld(outside());
      const sessions = outside().stripe.sessions.size;
      const res = await w.call("POST", "/api/stripe/create-payment-intent", {
        token: w.tokens.user,
        json: { product_type: "subscription_basic", is_annual: false, origin_url },
      });
      expect([res.status, res.body.detail]).toEqual([400, "L'adresse de retour doit être celle de Unisson."]);
      expect(outside().stripe.sessions.size).toBe(sessions);
    });
  }

  // A URL parser reads "\\@" as a path on Unisson's own origin: accepted, and harmless because the
  // return addresses are built from PUBLIC_URL, never copied from origin_url.
  for (const origin_url of [`${ORIGIN}/quelque/part?x=1`, "http://localhost:3000\\@evil.example"]) {
    test(`an accepted origin_url (${JSON.stringify(origin_url)}) sends the customer back to Unisson's own address only`, async () => {
      const w = await buildWorld(outside());
      const res = await w.call("POST", "/api/stripe/create-payment-intent", {
        token: w.tokens.user,
        json: { product_type: "subscription_basic", is_annual: false, origin_url },
      });
      expect(res.status).toBe(200);
      const session = outside().stripe.sessions.get(String(res.body.checkout_url).split("/").pop()!)!;
      for (const url of [session.success_url, session.cancel_url]) expect(url!.startsWith(`${ORIGIN}/`)).toBe(true);
    });
  }
});
