import { describe, expect, test } from "bun:test";
import { Hono } from "hono";
import { z } from "zod";
import { errorHandler } from "../../../src/app.ts";
import type { AppEnv } from "../../../src/deps.ts";
import { AppError } from "../../../src/lib/errors.ts";
import { validate } from "../../../src/lib/validate.ts";
import { createMemoryLogger } from "../../helpers/memory-logger.ts";
import { createTestApp } from "../../helpers/app.ts";

/** A throwaway router behind the app's own error handler. */
function appWith(route: (h: Hono<AppEnv>) => void) {
  const log = createMemoryLogger();
  const app = new Hono<AppEnv>();
  app.onError(errorHandler(log));
  route(app);
  return { app, log };
}

describe("error shape", () => {
  test("an AppError answers its status and French detail", async () => {
    const { app } = appWith((h) =>
      h.get("/probe/x", () => {
        throw new AppError("PAYMENTS_DISABLED");
      }),
    );
    const res = await app.request("/probe/x");
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({ detail: "Problème de configuration de paiement. Contactez le support." });
  });

  test("an unexpected error answers 500 without internals and is logged", async () => {
    const { app, log } = appWith((h) =>
      h.get("/probe/boom", () => {
        throw new Error("secret internal state at /src/x.ts:12");
      }),
    );
    const res = await app.request("/probe/boom");
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ detail: "Erreur interne du serveur. Veuillez réessayer dans quelques instants." });
    expect(text).not.toContain("secret");
    expect(log.lines.some((l) => l.includes("unhandled error"))).toBe(true);
  });

  test("malformed JSON answers 400 in French", async () => {
    const { app } = appWith((h) => h.post("/probe/v", validate("json", z.object({ a: z.string() })), (c) => c.json({ ok: true })));
    const res = await app.request("/probe/v", { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: "Le corps de la requête doit être un JSON valide." });
  });

  test("a schema violation answers 400 with the field's French message", async () => {
    const { app } = appWith((h) =>
      h.post("/probe/v", validate("json", z.object({ name: z.string({ error: "Le nom est requis" }) })), (c) => c.json({ ok: true })),
    );
    const res = await app.request("/probe/v", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: "Le nom est requis" });
  });

  test("zod's own messages are French", async () => {
    const { app } = appWith((h) => h.post("/probe/v", validate("json", z.object({ n: z.number() })), (c) => c.json({ ok: true })));
    const res = await app.request("/probe/v", { method: "POST", headers: { "content-type": "application/json" }, body: '{"n":"x"}' });
    expect(res.status).toBe(400);
    const { detail } = (await res.json()) as { detail: string };
    expect(detail).toMatch(/invalide|attendu/i);
  });

  test("a broken database answers 500 from a real route, without internals", async () => {
    const { call, db } = await createTestApp();
    db.$client.close();
    const res = await call("GET", "/api/health");
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ detail: "Erreur interne du serveur. Veuillez réessayer dans quelques instants." });
  });
});
