import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { createTestApp } from "../../helpers/app.ts";
import { makeUser } from "../../helpers/fixtures.ts";

const POST_ENDPOINTS = [
  "/api/auth/register",
  "/api/auth/login",
  "/api/auth/2fa/request",
  "/api/auth/2fa/verify",
  "/api/auth/forgot-password",
  "/api/auth/reset-password",
  "/api/auth/logout",
];

/** Objects that look like the real payloads, with hostile values in every field. */
const field = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }),
  fc.constantFrom("a@b.fr", "  A@B.FR ", "123456", "Motdepasse1", "\u0000", "\u202e", "😀".repeat(100)),
);
const payload = fc.oneof(
  fc.jsonValue(),
  fc.record(
    { email: field, password: field, first_name: field, last_name: field, code: field, remember_device: field, token: field, new_password: field },
    { requiredKeys: [] },
  ),
);

describe("hostile input on every auth endpoint", () => {
  test("random JSON bodies never get a 5xx; every refusal is a 4xx with a detail", async () => {
    const { call, db, clock } = await createTestApp();
    await makeUser(db, clock.now(), { email: "a@b.fr" });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...POST_ENDPOINTS), payload, fc.nat(250), async (path, json, ip) => {
        const res = await call("POST", path, { json, headers: { "x-forwarded-for": `10.0.${ip}.1` } });
        expect(res.status).toBeLessThan(500);
        // A well-formed forgot-password ("a@b.fr") is a legitimate 200; anything else is refused.
        if (res.status >= 300) expect(typeof res.body.detail).toBe("string");
        else expect(path).toBe("/api/auth/forgot-password");
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  test("random raw bodies (not JSON) only ever get a 4xx", async () => {
    const { app } = await createTestApp();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...POST_ENDPOINTS),
        fc.string({ unit: "binary" }),
        fc.constantFrom("application/json", "text/plain", ""),
        async (path, body, type) => {
          const res = await app.request(path, { method: "POST", body, headers: type ? { "content-type": type } : {} });
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 200 },
    );
  });

  test("random reset tokens in the path never get a 5xx", async () => {
    const { app } = await createTestApp();
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: "binary", minLength: 1 }), async (token) => {
        const res = await app.request(`/api/auth/validate-reset-token/${encodeURIComponent(token)}`);
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 200 },
    );
  });
});
