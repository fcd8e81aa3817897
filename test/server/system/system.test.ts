import { describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { transaction } from "../../../src/db/transaction.ts";
import { createTestApp } from "../../helpers/app.ts";
import { SQLITE_ONLY } from "../../helpers/test-database.ts";

describe("system endpoints", () => {
  test("GET /api/health answers 200 without a session", async () => {
    const { call } = await createTestApp();
    const res = await call("GET", "/api/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", version: "2.4" });
  });

  // SQLite's one connection: a transaction holds it, so the ping waits (PostgreSQL's pool answers beside it).
  test.skipIf(SQLITE_ONLY)("GET /api/health during another request's transaction answers 200 once it ends", async () => {
    const { call, db } = await createTestApp();
    let end!: () => void;
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    const open = transaction(db, async (tx) => {
      await tx.run(sql`SELECT 1`);
      await ended;
    });
    await Bun.sleep(5);
    let answered = false;
    const health = call("GET", "/api/health").then((res) => {
      answered = true;
      return res;
    });
    await Bun.sleep(5);
    expect(answered).toBe(false);
    end();
    await open;
    const res = await health;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", version: "2.4" });
  });

  test("GET /api/warmup answers the milliseconds it took", async () => {
    const { call } = await createTestApp();
    const res = await call("GET", "/api/warmup");
    expect(res.status).toBe(200);
    expect(typeof res.body.warmup_time).toBe("number");
    expect(res.body.warmup_time).toBeGreaterThanOrEqual(0);
  });

  test("an unknown /api path answers a French JSON 404", async () => {
    const { call } = await createTestApp();
    const res = await call("GET", "/api/does-not-exist");
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body).toEqual({ detail: "Point d'accès introuvable." });
  });

  test("an unknown /api path answers 404 for other methods too", async () => {
    const { call } = await createTestApp();
    const res = await call("POST", "/api/nothing/here", { json: {} });
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe("Point d'accès introuvable.");
  });

  test("every answer carries the security headers", async () => {
    const { call } = await createTestApp();
    const res = await call("GET", "/api/health");
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });

  test("a POST from another site's page is refused with 403", async () => {
    const { call } = await createTestApp();
    const res = await call("POST", "/api/health", { json: {}, headers: { origin: "https://evil.example" } });
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe("Requête refusée : elle ne provient pas de Unisson.");
  });

  test("a body over the size limit is refused with 413 before parsing", async () => {
    const { call } = await createTestApp();
    const res = await call("POST", "/api/nothing", { json: { x: "a".repeat(300 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body.detail).toBe("Requête trop volumineuse.");
  });

  test("a request is logged with its duration", async () => {
    const { call, log } = await createTestApp();
    await call("GET", "/api/warmup");
    expect(log.lines.some((l) => /http method=GET path=\/api\/warmup status=200 ms=\d/.test(l))).toBe(true);
  });
});
