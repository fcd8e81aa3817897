import { describe, expect, test } from "bun:test";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";

/**
 * The hottest JSON answers (/api/health, /api/auth/me) are made with the
 * request pipeline's headers already in place (src/lib/answer-headers.ts);
 * every other JSON answer gets them set by the pipeline after its route. Both
 * ways must give the same headers: same names, same values.
 */
type App = Awaited<ReturnType<typeof createTestApp>>;

/** Every header of an answer but its own request id, as name: value. */
async function headersOf(t: App, method: string, path: string, token?: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}`, ...extra } : extra;
  const res = await t.app.request(path, { method, headers });
  expect(res.status).toBe(200);
  expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  const all = Object.fromEntries(res.headers);
  delete all["x-request-id"];
  return all;
}

describe("the headers of the hottest JSON answers", () => {
  test("GET /api/health carries the same headers as any other JSON answer", async () => {
    const t = await createTestApp();
    const other = await headersOf(t, "GET", "/api/warmup");
    expect(other["content-security-policy"]).toContain("default-src 'self'");
    expect(other.vary).toBe("Accept-Encoding");
    expect(await headersOf(t, "GET", "/api/health")).toEqual(other);
  });

  test("GET /api/auth/me carries the same headers as any other JSON answer", async () => {
    const t = await createTestApp();
    const { token } = await makeUser(t.db, t.clock.now());
    expect(await headersOf(t, "GET", "/api/auth/me", token)).toEqual(await headersOf(t, "GET", "/api/auth/api-keys", token));
  });

  test("with Accept-Encoding, GET /api/auth/me goes uncompressed (too small) with the same headers as another small JSON answer", async () => {
    const t = await createTestApp();
    const { token } = await makeUser(t.db, t.clock.now());
    const accept = { "accept-encoding": "br, gzip" };
    const me = await headersOf(t, "GET", "/api/auth/me", token, accept);
    expect(me["content-encoding"]).toBeUndefined();
    expect(me).toEqual(await headersOf(t, "GET", "/api/auth/api-keys", token, accept));
  });

  test("HEAD /api/health carries the same headers as another JSON answer's HEAD", async () => {
    const t = await createTestApp();
    const other = await headersOf(t, "HEAD", "/api/warmup");
    expect(other.vary).toBeUndefined();
    expect(await headersOf(t, "HEAD", "/api/health")).toEqual(other);
  });

  test("a client's well-formed X-Request-Id comes back on /api/health", async () => {
    const t = await createTestApp();
    const res = await t.app.request("/api/health", { headers: { "x-request-id": "sonde-42" } });
    expect(res.headers.get("x-request-id")).toBe("sonde-42");
  });
});
